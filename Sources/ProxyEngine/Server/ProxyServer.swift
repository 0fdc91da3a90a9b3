/// The proxy: one ``Worker`` per configured worker thread, all listening on the same addresses
/// (SO_REUSEPORT), started by ``start()`` and stopped by ``drain()`` or ``stop()``.
public final class ProxyServer: @unchecked Sendable {
    // @unchecked Sendable: `workers`, `threads`, `settings` and `addresses` are written by start() and
    // reload(settings:) on one controlling thread (the CLI's main thread), which also calls every other
    // method; workers are only touched through their loops' thread-safe entry points.
    /// The configuration in effect (replaced by a successful reload).
    var settings: EngineSettings
    let events: EngineEvents
    var workers: [Worker] = []
    private var threads: [LoopThread] = []
    /// The bound listener addresses, in configuration order (ports resolved).
    public internal(set) var addresses: [SocketAddress] = []
    /// The bound address of each configured listener address.
    var bound: [SocketAddress: SocketAddress] = [:]
    /// The generation of the configuration in effect: 1 at start, one more per successful reload.
    public var generation: Int { settings.generation }

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
            let address = try workers[0].listen(listener.address, configured: listener.address, tls: listener.tls)
            for worker in workers.dropFirst() {
                _ = try worker.listen(address, configured: listener.address, tls: listener.tls)
            }
            addresses.append(address)
            bound[listener.address] = address
        }
        threads = workers.map { worker in LoopThread { worker.run() } }
        return addresses
    }

    /// Stops accepting and lets in-flight requests finish, up to the drain timeout; then the workers stop.
    /// Returns once every worker has closed its listeners (new connections are refused from then on).
    public func drain() {
        let timeout = settings.drainTimeout
        for worker in workers {
            // A loop that does not answer in time still drains when it gets to it.
            _ = try? worker.loop.perform { worker.beginDrain(timeout: timeout) }
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
