import Policy
import Yams

/// `limits:` at the top level and in routes.
extension ConfigDecoder {
    /// Every limits key, in the order the documentation lists them.
    static let limitKeys = [
        "header_bytes", "header_count", "body_bytes", "parts", "part_header_bytes", "field_bytes",
        "header_timeout", "idle_timeout", "drain_timeout",
    ]

    /// The largest `parts` and `header_count` a configuration may set.
    static let maximumCount = 1_000_000

    /// The global `limits:`; nil when any key has a problem.
    func decodeGlobalLimits(_ node: Node) -> RequestLimits? {
        guard let fields = mapping(node, "'limits'", keys: Self.limitKeys) else { return nil }
        var limits = RequestLimits()
        var failed = false
        func set<Value>(_ key: String, _ read: (Node, String) -> Value?, _ apply: (Value) -> Void) {
            guard let node = fields.value(key) else { return }
            if let value = read(node, "'\(key)'") { apply(value) } else { failed = true }
        }
        set("header_bytes", smallSize) { limits.headerBytes = $0 }
        set("header_count", count) { limits.headerCount = $0 }
        set("body_bytes", { size($0, $1) }) { limits.bodyBytes = $0 }
        set("parts", count) { limits.parts = $0 }
        set("part_header_bytes", smallSize) { limits.partHeaderBytes = $0 }
        set("field_bytes", { size($0, $1) }) { limits.fieldBytes = $0 }
        set("header_timeout", duration) { limits.headerTimeout = $0 }
        set("idle_timeout", duration) { limits.idleTimeout = $0 }
        set("drain_timeout", duration) { limits.drainTimeout = $0 }
        return failed ? nil : limits
    }

    /// A route's `limits:` as overrides of `global`; nil when any key has a problem.
    func decodeRouteLimits(_ node: Node, route: String, global: RequestLimits) -> RequestLimitOverrides? {
        let context = "'limits' of route '\(route)'"
        guard let fields = mapping(node, context, keys: Self.limitKeys) else { return nil }
        var overrides = RequestLimitOverrides()
        var failed = false
        func set<Value>(_ key: String, _ read: (Node, String) -> Value?, _ apply: (Value) -> Void) {
            guard let node = fields.value(key) else { return }
            if let value = read(node, "'\(key)'") { apply(value) } else { failed = true }
        }
        for key in ["header_timeout", "drain_timeout"] where fields.contains(key) {
            let why =
                key == "header_timeout"
                ? "the request head is read before a route is chosen"
                : "draining applies to the whole process"
            report(
                .invalidValue, at: fields.keyNode(key),
                "'\(key)' cannot be set per route (\(why)); "
                    + "set it in the top-level 'limits'")
            failed = true
        }
        set("header_bytes", smallSize) { overrides.headerBytes = $0 }
        set("header_count", count) { overrides.headerCount = $0 }
        set("body_bytes", { size($0, $1) }) { overrides.bodyBytes = $0 }
        set("parts", count) { overrides.parts = $0 }
        set("part_header_bytes", smallSize) { overrides.partHeaderBytes = $0 }
        set("field_bytes", { size($0, $1) }) { overrides.fieldBytes = $0 }
        set("idle_timeout", duration) { overrides.idleTimeout = $0 }
        if let value = overrides.headerBytes, value > global.headerBytes {
            report(
                .invalidValue, at: fields.value("header_bytes"),
                "'header_bytes' of route '\(route)' "
                    + "(\(ByteSize.format(Int64(value)))) exceeds the top-level \(ByteSize.format(Int64(global.headerBytes))): "
                    + "the head is read under the top-level limit, a route can only lower it")
            failed = true
        }
        if let value = overrides.headerCount, value > global.headerCount {
            report(
                .invalidValue, at: fields.value("header_count"),
                "'header_count' of route '\(route)' (\(value)) "
                    + "exceeds the top-level \(global.headerCount): the head is read under the top-level limit, "
                    + "a route can only lower it")
            failed = true
        }
        return failed ? nil : overrides
    }

    /// A count limit: 1 up to ``maximumCount``.
    private func count(_ node: Node, _ what: String) -> Int? {
        integer(node, what, in: 1...Self.maximumCount)
    }
}
