import CEventTLS

/// One worker: an event loop on its own thread, its listeners, its client connections and its pool of
/// upstream connections. Nothing here is shared with other workers.
final class Worker: @unchecked Sendable {
    // @unchecked Sendable: created on the main thread, then used only on its loop's thread, except
    // through loop.schedule (thread-safe).
    let loop = EventLoop()
    let settings: EngineSettings
    let events: EngineEvents
    let pool = UpstreamPool()
    /// Metric handles resolved from `settings` (per route and upstream).
    let metrics: EngineMetrics
    private var listeners: [Listener] = []
    /// Open client connections.
    var connections = 0
    /// SIGTERM: no new connections, no keep-alive; the loop stops when the last connection closes.
    private(set) var draining = false
    private var drainTimer: OpaquePointer?
    private var clients: [ObjectIdentifier: ClientConnection] = [:]
    private var requestCounter: UInt64 = 0
    /// A random prefix per worker, so request ids are unique across workers and restarts.
    private let requestPrefix: String = {
        var generator = SystemRandomNumberGenerator()
        let value: UInt64 = generator.next()
        return String(value & 0xFFFF_FFFF, radix: 16)
    }()

    /// A request id for access and audit lines: the worker's random prefix and a counter.
    func nextRequestID() -> String {
        requestCounter += 1
        return requestPrefix + "-" + String(requestCounter, radix: 16)
    }

    init(settings: EngineSettings, events: EngineEvents) {
        self.settings = settings
        self.events = events
        self.metrics = EngineMetrics(settings: settings)
    }

    /// Binds a listener on this worker's loop; returns the bound address.
    func listen(_ address: SocketAddress, tls: (any ServerTLSProvider)?) throws -> SocketAddress {
        let listener = try Listener(loop: loop, address: address) { [unowned self] descriptor, peer in
            self.accept(descriptor, peer, tls)
        }
        listeners.append(listener)
        return listener.address
    }

    private func accept(_ descriptor: Int32, _ peer: SocketAddress, _ tls: (any ServerTLSProvider)?) {
        guard !draining else {
            _ = evutil_closesocket(descriptor)
            return
        }
        if let connection = ClientConnection(worker: self, descriptor: descriptor, peer: peer, tls: tls) {
            clients[ObjectIdentifier(connection)] = connection
        }
    }

    /// A client connection closed.
    func connectionClosed() {
        clients = clients.filter { $0.value.bev != nil }
        if draining, connections == 0 { finishDrain() }
    }

    /// Stops accepting; idle connections close now, busy ones after their current exchange.
    func beginDrain(timeout: Duration) {
        guard !draining else { return }
        draining = true
        for listener in listeners { listener.close() }
        listeners.removeAll()
        pool.closeAll()
        for connection in Array(clients.values) where connection.phase == .head && connection.heads.isIdle {
            connection.close()
        }
        if connections == 0 {
            finishDrain()
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        drainTimer = event_new(loop.base, -1, 0, { _, _, context in
            let worker = Unmanaged<Worker>.fromOpaque(context!).takeUnretainedValue()
            worker.events.log("drain timeout: closing \(worker.connections) connection(s)")
            worker.finishDrain()
        }, me)
        var time = timeval(timeout)
        _ = event_add(drainTimer, &time)
    }

    private func finishDrain() {
        if let drainTimer {
            event_free(drainTimer)
            self.drainTimer = nil
        }
        pool.closeAll()
        loop.stop()
    }

    /// Runs the loop on the calling thread until stopped; closes what is left.
    func run() {
        loop.run()
        pool.closeAll()
        if let drainTimer {
            event_free(drainTimer)
            self.drainTimer = nil
        }
        listeners.removeAll()
        clients.removeAll()
    }
}
