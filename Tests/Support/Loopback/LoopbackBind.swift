import Foundation

/// Binding test sockets on loopback.
public enum LoopbackBind {
    /// A new TCP socket (AF_INET, SOCK_STREAM), or -1.
    ///
    /// For test modules that also import CEventTLS: there, a clean build can leave `SOCK_STREAM` out of scope in
    /// files that see Glibc only through Foundation (CEventTLS's header includes <sys/socket.h>).
    public static func tcpSocket() -> Int32 {
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the kernel picks.
    /// - Returns: that port, or nil when bind failed.
    public static func anyPort(_ descriptor: Int32) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }
        var name = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: name.sin_port)
    }
}
