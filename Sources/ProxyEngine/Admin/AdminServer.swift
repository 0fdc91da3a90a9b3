import CEventTLS
import HTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// The admin listener (`admin:`): plain HTTP/1.1 on its own event loop and thread, serving `/metrics`,
/// `/healthz` and `/readyz` (see ``AdminResponse``).
///
/// It has no bodies to stream, so it does not need the proxy's pipeline, but it reads heads with the same
/// strict ``RequestHeadParser`` on a bufferevent, as the proxy does, rather than with evhttp (a second,
/// laxer HTTP parser and one more libevent library). Its own loop keeps scrapes and probes off the workers'
/// loops, and keeps them answered while the workers are busy or draining. Every connection is bounded: the
/// head limits, at most ``maxConnections`` at once, ``timeout`` to send a head and read the answer, and one
/// request per connection.
public final class AdminServer: @unchecked Sendable {
    // @unchecked Sendable: `listener`, `thread` and `connections` are written by start() before the loop
    // thread runs, then only touched on the loop thread (connections) or by stop() after it.
    let loop = EventLoop()
    let handlers: AdminHandlers
    private var listener: Listener?
    private var thread: LoopThread?
    /// Open admin connections.
    var connections = 0
    /// More connections than this at once are closed as they are accepted.
    static let maxConnections = 64
    /// Time allowed to send a head, and to read the answer.
    public static let timeout: Duration = .seconds(10)
    /// This server's ``timeout`` (tests shorten it).
    let connectionTimeout: Duration

    /// - Parameters:
    ///   - handlers: what `/metrics` and `/readyz` answer with.
    ///   - timeout: how long a connection may take, from accept to its answer read (default 10 s).
    public init(handlers: AdminHandlers, timeout: Duration = AdminServer.timeout) {
        self.handlers = handlers
        self.connectionTimeout = timeout
    }

    /// Binds `address` and starts the admin thread.
    /// - Returns: the bound address (port 0 resolved).
    /// - Throws: when the address cannot be bound.
    @discardableResult
    public func start(address: SocketAddress) throws -> SocketAddress {
        let listener = try Listener(loop: loop, address: address) { [unowned self] descriptor, _ in
            self.accept(descriptor)
        }
        self.listener = listener
        let loop = self.loop
        thread = LoopThread { loop.run() }
        return listener.address
    }

    /// Stops the admin loop (open admin connections are closed) and waits for its thread.
    public func stop() {
        loop.stop()
        thread?.join()
        thread = nil
        listener = nil
    }

    private func accept(_ descriptor: Int32) {
        guard connections < Self.maxConnections else {
            _ = Glibc.close(descriptor)
            return
        }
        _ = AdminConnection(server: self, descriptor: descriptor)
    }
}
