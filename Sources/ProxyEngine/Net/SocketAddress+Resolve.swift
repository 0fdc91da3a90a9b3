import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
#if canImport(Glibc)
import Glibc
#endif

extension SocketAddress {
    /// Resolves `host` (a name or a numeric address) with getaddrinfo, IPv4 first.
    /// - Throws: ``ResolveError`` with the resolver's message.
    public static func resolve(host: String, port: UInt16) throws(ResolveError) -> SocketAddress {
        try resolveAll(host: host, port: port)[0]
    }

    /// Resolves `host` (a name or a numeric address) with getaddrinfo to every address it has, each once: the IPv4
    /// ones first, then the IPv6 ones, each family in the resolver's order.
    /// - Throws: ``ResolveError`` with the resolver's message; never returns an empty list.
    public static func resolveAll(host: String, port: UInt16) throws(ResolveError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw ResolveError(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var candidates: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr {
                let candidate = SocketAddress(address, length: Int(entry.pointee.ai_addrlen))
                if !candidates.contains(candidate) { candidates.append(candidate) }
            }
            cursor = entry.pointee.ai_next
        }
        let ordered = candidates.filter { !$0.isIPv6 } + candidates.filter(\.isIPv6)
        guard !ordered.isEmpty else { throw ResolveError(host: host, reason: "no address") }
        return ordered
    }
}

/// A host name that does not resolve.
public struct ResolveError: Error, CustomStringConvertible {
    public var host: String
    public var reason: String
    public var description: String { "cannot resolve \(host): \(reason)" }
}
