/// One listening address of a worker: the address as configured (what a reload compares, port 0
/// included), its socket, and the TLS context accepted connections get (a reload may replace it, so a
/// rotated certificate takes effect without closing the socket).
final class WorkerListener {
    /// The address as the configuration gives it.
    let configured: SocketAddress
    /// TLS for connections accepted from now on (nil: plain).
    var tls: (any ServerTLSProvider)?
    /// The socket (nil once closed).
    var listener: Listener?

    init(configured: SocketAddress, tls: (any ServerTLSProvider)?) {
        self.configured = configured
        self.tls = tls
    }

    /// Closes the socket: connections to it are refused from now on (ones already accepted stay).
    func close() {
        listener?.close()
        listener = nil
    }
}
