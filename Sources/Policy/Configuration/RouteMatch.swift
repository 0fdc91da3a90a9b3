import Multipart

/// Which requests a route takes (`routes[].match:`).
public struct RouteMatch: Sendable, Hashable {
    /// The request host, without port, as a case-insensitive glob (`host:`, default `*`).
    public var host: Glob
    /// The path prefix, matched on segment boundaries (`path_prefix:`, default `/`): `/avatars` takes
    /// `/avatars`, `/avatars/x` and `/avatars?x`, not `/avatarsX`. A prefix ending in `/` takes every path that
    /// starts with it.
    public var pathPrefix: String
    /// The methods, case-sensitive as in HTTP (`methods:`); nil takes every method (the default).
    public var methods: Set<String>?

    /// - Parameters:
    ///   - host: case-insensitive host glob (default `*`).
    ///   - pathPrefix: path prefix starting with `/` (default `/`).
    ///   - methods: the methods taken (default nil: all).
    public init(host: Glob = Self.anyHost, pathPrefix: String = "/", methods: Set<String>? = nil) {
        self.host = host
        self.pathPrefix = pathPrefix
        self.methods = methods
    }

    /// The default host glob, `*`.
    public static let anyHost: Glob = try! Glob("*", caseInsensitive: true)

    /// Whether a request belongs to this route.
    /// - Parameters:
    ///   - host: the request's host without port (from `Host` or the absolute-form target).
    ///   - path: the request target's path, possibly followed by `?query`.
    ///   - method: the request method.
    public func matches(host: String, path: String, method: String) -> Bool {
        if let methods, !methods.contains(method) { return false }
        guard self.host.matchesEverything || self.host.matches(host) else { return false }
        // `/` takes every path however it is spelled: no need to normalise for it.
        if pathPrefix == "/" { return Self.path(path, hasPrefix: pathPrefix) }
        return Self.path(Self.routingPath(path) ?? path, hasPrefix: pathPrefix)
    }

    /// The path as a backend that normalises it reads it (RFC 3986 §6.2.2), when that differs: percent-encoded
    /// unreserved characters decoded (`/%75pload` is `/upload`), runs of `/` merged (`//upload`, as nginx's
    /// `merge_slashes`), and each segment's `;` parameters dropped (`/admin;x/upload` is `/admin/upload` to
    /// Tomcat and Jetty). Nil when the path needs none of it. (Dot segments never get here: the head parser
    /// refuses them, `..;x` included.) The query is left as it is.
    static func routingPath(_ path: String) -> String? {
        var previous: UInt8 = 0
        var needed = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "?") { break }
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: ";")
                || (byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/"))
            {
                needed = true
                break
            }
            previous = byte
        }
        guard needed else { return nil }
        let bytes = Array(path.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < end, let high = ASCIIHex.value(bytes[index + 1]),
                let low = ASCIIHex.value(bytes[index + 2]), isUnreserved(high << 4 | low)
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            if byte == UInt8(ascii: "/"), out.last == UInt8(ascii: "/") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: ";") {
                while index < end, bytes[index] != UInt8(ascii: "/") { index += 1 }
                continue
            }
            out.append(byte)
            index += 1
        }
        out.append(contentsOf: bytes[end...])
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 §2.3: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func bytes(_ path: UnsafeBufferPointer<UInt8>, haveSegmentPrefix prefix: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard path.count >= prefix.count else { return false }
        for index in 0..<prefix.count where path[index] != prefix[index] { return false }
        if prefix.last == UInt8(ascii: "/") || path.count == prefix.count { return true }
        let next = path[prefix.count]
        return next == UInt8(ascii: "/") || next == UInt8(ascii: "?")
    }

    /// Whether `path` starts with `prefix` on a segment boundary.
    static func path(_ path: String, hasPrefix prefix: String) -> Bool {
        // Over contiguous bytes (a walk of two UTF-8 views cost ~270 instructions per request for `/`).
        if let result = path.utf8.withContiguousStorageIfAvailable({ path in
            prefix.utf8.withContiguousStorageIfAvailable { prefix in bytes(path, haveSegmentPrefix: prefix) }
        }), let result {
            return result
        }
        guard path.utf8.starts(with: prefix.utf8) else { return false }
        if prefix.utf8.last == UInt8(ascii: "/") { return true }
        let rest = path.utf8.dropFirst(prefix.utf8.count)
        guard let next = rest.first else { return true }
        return next == UInt8(ascii: "/") || next == UInt8(ascii: "?")
    }
}
