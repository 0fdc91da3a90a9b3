import Foundation

/// A loopback port that refuses connections for as long as this value lives: a TCP socket bound to
/// 127.0.0.1:0 that never listens, so a connect gets a reset (ECONNREFUSED) and no other socket can be
/// given the port meanwhile. (Binding a server, reading its port and closing it leaves a window in which a
/// test running in parallel can be handed the same port and answer in its place.)
public final class RefusingPort: @unchecked Sendable {
    // @unchecked Sendable: both properties are set in init and never change.
    public let descriptor: Int32
    public let port: UInt16

    public init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "bind: errno \(errno)")
        var name = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: name.sin_port)
    }

    deinit {
        close(descriptor)
    }
}
