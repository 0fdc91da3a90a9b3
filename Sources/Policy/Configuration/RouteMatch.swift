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
        return Self.path(path, hasPrefix: pathPrefix)
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
