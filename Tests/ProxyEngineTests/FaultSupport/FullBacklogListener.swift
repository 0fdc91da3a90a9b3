import Foundation
import LoopbackTestSupport

/// A listening socket on 127.0.0.1 that never accepts and whose accept queue is full, so a new connection
/// attempt gets no SYN-ACK (Linux drops the SYN) and hangs until the connecting side's timeout: a loopback
/// stand-in for an unreachable upstream.
final class FullBacklogListener {
    let port: UInt16
    private let descriptor: Int32
    /// Connections that filled the queue (not counted as the proxy's: they are the test's own).
    private var fillers: [Int32] = []

    init() throws {
        let listening = LoopbackBind.tcpSocket()
        descriptor = listening
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, length) == 0 && listen(listening, 0) == 0
                    && getsockname(listening, $0, &length) == 0
            }
        }
        guard bound else {
            Foundation.close(listening)
            throw SocketError(message: "FullBacklogListener: bind/listen failed")
        }
        port = UInt16(bigEndian: address.sin_port)
        // Connect until one attempt does not complete within 200 ms: the queue is full from then on.
        for _ in 0..<8 {
            let fd = LoopbackBind.tcpSocket()
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var target = address
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            // The first connection finds the queue empty and must complete: it gets longer on a loaded machine
            // (a handshake deferred past 200 ms would otherwise end the loop with the queue still open).
            if poll(&poller, 1, fillers.isEmpty ? 2000 : 200) == 1 {
                fillers.append(fd)
            } else {
                Foundation.close(fd)
                return
            }
        }
        throw SocketError(message: "FullBacklogListener: the accept queue never filled")
    }

    deinit {
        for fd in fillers { Foundation.close(fd) }
        Foundation.close(descriptor)
    }
}
