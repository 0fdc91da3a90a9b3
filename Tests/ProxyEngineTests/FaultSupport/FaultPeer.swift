import CEventTLS
import Foundation
import ProxyEngine

/// The upstream's side of one connection in a fault test, plain or TLS over a blocking socket (10 s timeouts,
/// so a broken test fails instead of hanging).
final class FaultPeer {
    private let socket: TestSocket
    private let tls: BlockingTLSEndpoint?
    private var closed = false

    init(socket: TestSocket, tls: BlockingTLSEndpoint?) {
        self.socket = socket
        self.tls = tls
    }

    /// Reads up to `count` bytes into `buffer`; the count, 0 at end of stream, -1 on an error or timeout.
    func read(into buffer: inout [UInt8], count: Int) -> Int {
        if let tls {
            ERR_clear_error()
            let result = buffer.withUnsafeMutableBytes { SSL_read(tls.ssl, $0.baseAddress, Int32(count)) }
            if result > 0 { return Int(result) }
            return SSL_get_error(tls.ssl, result) == SSL_ERROR_ZERO_RETURN ? 0 : -1
        }
        return buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, count, 0) }
    }

    /// The data segments this side received so far (`tcpi_data_segs_in` of Linux's `struct tcp_info`, Linux 4.6
    /// and later); nil if the socket does not say.
    func dataSegmentsReceived() -> Int? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let result = info.withUnsafeMutableBytes {
            getsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length)
        }
        let offset = 152  // offsetof(struct tcp_info, tcpi_data_segs_in)
        guard result == 0, Int(length) >= offset + 4 else { return nil }
        return info.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// Reads the request head (up to CRLFCRLF, at most 64 KiB); nil if the connection ended first.
    func readHead() -> String? {
        var head: [UInt8] = []
        var byte = [UInt8](repeating: 0, count: 1)
        while head.count < 65536 {
            guard read(into: &byte, count: 1) == 1 else { return nil }
            head.append(byte[0])
            if head.count >= 4, head.suffix(4) == [13, 10, 13, 10] { return String(decoding: head, as: UTF8.self) }
        }
        return nil
    }

    /// Reads until at least `count` bytes arrived or the connection ended; returns the bytes read.
    @discardableResult
    func read(atLeast count: Int) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while total < count {
            let got = read(into: &buffer, count: buffer.count)
            if got <= 0 { break }
            total += got
        }
        return total
    }

    /// Reads until the peer closes (or an error or the 10 s timeout); returns the byte count.
    @discardableResult
    func drain() -> Int {
        read(atLeast: Int.max)
    }

    /// Writes all of `bytes`; false when the connection failed first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written: Int
            if let tls {
                ERR_clear_error()
                written = bytes[offset...].withUnsafeBytes { Int(SSL_write(tls.ssl, $0.baseAddress, Int32($0.count))) }
            } else {
                written = bytes[offset...].withUnsafeBytes {
                    Foundation.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Runs `body` with the socket corked (TCP_CORK): what it sends leaves in as few segments as fit, so a TLS
    /// peer's many records reach the other side together.
    func corked(_ body: () -> Void) {
        var on: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
        body()
        var off: Int32 = 0
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes with a TCP reset (SO_LINGER 0).
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        socket.close()
    }

    /// Closes (close_notify first for TLS).
    func close() {
        guard !closed else { return }
        closed = true
        if let tls { tls.close() } else { socket.close() }
    }

    /// Closes the socket without TLS's close_notify, as a server process that exits or drops the connection
    /// does; with request bytes still unread, the kernel answers them with a reset. It waits (at most 2 s) until
    /// the peer acknowledged everything sent: the reset discards what is still queued, and Linux holds small
    /// writes back while earlier ones are unacknowledged (autocorking), so without the wait the answer itself
    /// would at times never leave.
    func closeAbruptly() {
        guard !closed else { return }
        closed = true
        let deadline = Date(timeIntervalSinceNow: 2)
        var queued: Int32 = 0
        while ioctl(socket.fd, UInt(TIOCOUTQ), &queued) == 0, queued > 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        socket.close()
    }
}
