import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
import Glibc

/// A blocking TCP socket on 127.0.0.1 for TLS tests (no libevent). Owns its descriptor, closed in `deinit` or by
/// ``close()``. Every socket gets 10 s send/receive timeouts, so a broken test fails instead of hanging.
final class TestSocket: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is set once; close() is only called by the thread that uses the socket.
    private(set) var fd: Int32

    private init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close()
    }

    /// Closes the descriptor (once).
    func close() {
        if fd >= 0 {
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    /// Closes the sending direction, reads until the peer closes (or the timeout), then closes. Closing with unread
    /// input would make the kernel send a reset, which can overtake a TLS alert still on its way to the peer.
    func closeGracefully() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
        close()
    }

    /// A listening socket on 127.0.0.1 with a kernel-chosen port.
    static func listen() throws -> (socket: TestSocket, port: UInt16) {
        let socket = try make()
        var address = loopback(port: 0)
        try check(withSockaddr(&address) { bind(socket.fd, $0, $1) }, "bind")
        try check(Glibc.listen(socket.fd, 16), "listen")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try check(
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.fd, $0, &length) }
            }, "getsockname")
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one connection (10 s timeout).
    func accept() throws -> TestSocket {
        let connection = Glibc.accept(fd, nil, nil)
        try Self.check(connection, "accept")
        return TestSocket(fd: connection)
    }

    /// A socket connected to 127.0.0.1:`port`.
    static func connect(port: UInt16) throws -> TestSocket {
        let socket = try make()
        var address = loopback(port: port)
        try check(withSockaddr(&address) { Glibc.connect(socket.fd, $0, $1) }, "connect")
        return socket
    }

    /// Makes blocking reads give up after `seconds` (`SO_RCVTIMEO`), so a stalled peer fails a test instead of
    /// hanging it.
    func setReceiveTimeout(seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func make() throws -> TestSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try check(fd, "socket")
        return TestSocket(fd: fd)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    private static func withSockaddr(
        _ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private static func check(_ result: Int32, _ call: String) throws {
        if result < 0 { throw SocketError(message: "\(call): \(String(cString: strerror(errno)))") }
    }
}

/// A failed socket call in a test.
struct SocketError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
