import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    private var storage: [UInt8]

    /// Parses `host:port` or `[v6]:port` (numeric addresses only; port 0 allowed).
    public init?(_ text: String) {
        // libevent refuses port 0, which means "any free port" here: parse with port 1, then set 0.
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        guard let parsed = SocketAddress(parsing: text[..<colon] + ":1") else { return nil }
        self = parsed
        self.port = port
    }

    private init?(parsing text: String) {
        var address = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                evutil_parse_sockaddr_port(text, $0, &length) == 0
            }
        }
        guard ok else { return nil }
        storage = withUnsafeBytes(of: &address) { Array($0.prefix(Int(length))) }
    }

    /// An address from a `sockaddr` of `length` bytes.
    init(_ address: UnsafePointer<sockaddr>, length: Int) {
        storage = Array(UnsafeRawBufferPointer(start: address, count: length))
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, Int32) -> Result) -> Result {
        var address = sockaddr_storage()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: storage) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, Int32(storage.count)) }
        }
    }

    /// The port.
    public var port: UInt16 {
        get { withSockaddr { address, _ in Self.port(of: address) } }
        set {
            let value = newValue.bigEndian
            storage.withUnsafeMutableBytes { bytes in
                // sin_port and sin6_port are both at offset 2.
                bytes.storeBytes(of: value, toByteOffset: 2, as: UInt16.self)
            }
        }
    }

    private static func port(of address: UnsafePointer<sockaddr>) -> UInt16 {
        UnsafeRawPointer(address).load(fromByteOffset: 2, as: UInt16.self).bigEndian
    }

    /// The numeric host (no brackets).
    public var host: String {
        withSockaddr { address, _ in
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            let family = Int32(address.pointee.sa_family)
            let raw = UnsafeRawPointer(address)
            let ok: Bool
            if family == AF_INET6 {
                ok = inet_ntop(AF_INET6, raw + 8, &buffer, socklen_t(buffer.count)) != nil
            } else {
                ok = inet_ntop(AF_INET, raw + 4, &buffer, socklen_t(buffer.count)) != nil
            }
            guard ok else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// True for an IPv6 address.
    public var isIPv6: Bool { withSockaddr { address, _ in Int32(address.pointee.sa_family) == AF_INET6 } }

    /// `host:port`, with brackets around IPv6 hosts.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The local address a socket is bound to.
    static func local(of descriptor: Int32) -> SocketAddress? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard ok else { return nil }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: Int(length)) }
        }
    }
}
