import CEventTLS
import Glibc
import ProxyEngine

/// One side of a TLS connection over a blocking socket, driven with `SSL_accept`/`SSL_connect`/`SSL_read`/
/// `SSL_write` (the engine drives the same `SSL` objects through libevent instead).
///
/// Owns the `SSL*` it is given (freed in `deinit`) and its socket.
final class BlockingTLSEndpoint {
    let ssl: OpaquePointer
    private let socket: TestSocket

    /// Takes ownership of `ssl` (from a context's `makeSSL`) and binds it to `socket`.
    init(ssl: OpaquePointer, socket: TestSocket) {
        self.ssl = ssl
        self.socket = socket
        _ = SSL_set_fd(ssl, socket.fd)
    }

    deinit {
        SSL_free(ssl)
    }

    /// Runs the handshake as server (`SSL_accept`) or client (`SSL_connect`).
    func handshake(asServer: Bool) -> Result<TLSConnectionInfo, TLSError> {
        ERR_clear_error()
        let result = asServer ? SSL_accept(ssl) : SSL_connect(ssl)
        guard result == 1 else { return .failure(failure(result)) }
        return .success(TLSConnectionInfo(ssl: ssl))
    }

    /// Writes all of `text`.
    func write(_ text: String) -> TLSError? {
        ERR_clear_error()
        let bytes = Array(text.utf8)
        let result = SSL_write(ssl, bytes, Int32(bytes.count))
        return result == Int32(bytes.count) ? nil : failure(result)
    }

    /// Reads exactly `count` bytes (fewer if the peer closes).
    func read(count: Int) -> Result<String, TLSError> {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while received.count < count {
            ERR_clear_error()
            let result = SSL_read(ssl, &buffer, Int32(count - received.count))
            guard result > 0 else {
                if SSL_get_error(ssl, result) == SSL_ERROR_ZERO_RETURN { break }
                return .failure(failure(result))
            }
            received += buffer[0..<Int(result)]
        }
        return .success(String(decoding: received, as: UTF8.self))
    }

    /// Reads until `limit` bytes arrived, the peer closed, or a read failed (a receive timeout, say); the count read.
    func drain(upTo limit: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < limit {
            ERR_clear_error()
            let result = SSL_read(ssl, &buffer, Int32(min(buffer.count, limit - total)))
            guard result > 0 else { break }
            total += Int(result)
        }
        return total
    }

    /// Waits for the peer's close_notify or EOF (so the peer has read everything first), ignoring errors.
    func awaitClose() {
        var byte: UInt8 = 0
        while SSL_read(ssl, &byte, 1) > 0 {}
        ERR_clear_error()
    }

    /// Sends close_notify (if the handshake finished) and closes the socket. The `SSL` stays readable.
    ///
    /// - Parameter graceful: wait for the peer to close first (see ``TestSocket/closeGracefully()``).
    func close(graceful: Bool = false) {
        if SSL_is_init_finished(ssl) == 1 { _ = SSL_shutdown(ssl) }
        ERR_clear_error()
        if graceful { socket.closeGracefully() } else { socket.close() }
    }

    private func failure(_ result: Int32) -> TLSError {
        let code = SSL_get_error(ssl, result)
        let transport: String
        switch code {
        case SSL_ERROR_ZERO_RETURN: transport = "the peer closed the connection"
        case SSL_ERROR_SYSCALL: transport = errno == 0 ? "unexpected EOF" : String(cString: strerror(errno))
        default: transport = "SSL_get_error \(code)"
        }
        return TLSError.handshakeFailure(ssl: ssl, transport: transport)
    }
}
