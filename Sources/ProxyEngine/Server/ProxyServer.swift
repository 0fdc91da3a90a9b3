/// The proxy: one ``Worker`` per configured worker thread, all listening on the same addresses
/// (SO_REUSEPORT), started by ``start()`` and stopped by ``drain()`` or ``stop()``.
public final class ProxyServer: @unchecked Sendable {
    // @unchecked Sendable: `workers` and `threads` are written by start() on the caller's thread before any
    // other method may run; workers are only touched through their loops' thread-safe entry points.
    private let settings: EngineSettings
    private let events: EngineEvents
    private(set) var workers: [Worker] = []
    private var threads: [LoopThread] = []
    /// The bound listener addresses, in configuration order (ports resolved).
    public private(set) var addresses: [SocketAddress] = []

    public init(settings: EngineSettings, events: EngineEvents = EngineEvents()) {
        self.settings = settings
        self.events = events
    }

    /// Binds every listener on every worker and starts the worker threads.
    /// - Throws: when an address cannot be bound.
    @discardableResult
    public func start() throws -> [SocketAddress] {
        let count = max(1, settings.workers)
        workers = (0..<count).map { _ in Worker(settings: settings, events: events) }
        for listener in settings.listeners {
            // Bind the first worker, read the port back, then bind the others to it (P17).
            let bound = try workers[0].listen(listener.address, tls: listener.tls)
            for worker in workers.dropFirst() {
                _ = try worker.listen(bound, tls: listener.tls)
            }
            addresses.append(bound)
        }
        threads = workers.map { worker in LoopThread { worker.run() } }
        return addresses
    }

    /// Stops accepting and lets in-flight requests finish, up to the drain timeout; then the workers stop.
    public func drain() {
        let timeout = settings.drainTimeout
        for worker in workers {
            worker.loop.schedule { worker.beginDrain(timeout: timeout) }
        }
    }

    /// Stops every worker at once (open connections are closed).
    public func stop() {
        for worker in workers { worker.loop.stop() }
    }

    /// Waits until every worker thread has finished.
    public func wait() {
        for thread in threads { thread.join() }
        threads.removeAll()
        workers.removeAll()
    }
}
