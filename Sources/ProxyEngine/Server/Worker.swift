import CEventTLS
import HTTP1
import Multipart

/// One worker: an event loop on its own thread, its listeners, its client connections and its pool of
/// upstream connections. Nothing here is shared with other workers.
final class Worker: @unchecked Sendable {
    // @unchecked Sendable: created on the main thread, then used only on its loop's thread, except
    // through loop.schedule (thread-safe).
    let loop = EventLoop()
    /// The current configuration snapshot; a reload replaces it on the loop thread (``adopt(_:)``).
    var settings: EngineSettings {
        didSet {
            routeUpstreams = Self.upstreams(ofRoutesIn: settings)
            snapshot = SettingsSnapshot(settings)
        }
    }
    /// `settings` behind one reference, shared by the worker's client connections.
    private(set) var snapshot: SettingsSnapshot
    /// The upstream of each route of `settings`, by route index (nil: the route names none): one array read and
    /// one reference count per request, instead of hashing the upstream's name and copying its settings.
    private(set) var routeUpstreams: [RouteUpstream?]
    let events: EngineEvents
    let pool = UpstreamPool()
    /// A spool whose small body was sent from memory, kept for the next request that spools one.
    var spareSpool: Spool?
    /// Where request and response heads are written before they are copied to an output buffer.
    private var headBuffer: [UInt8] = []
    /// Metric handles resolved from `settings` (per route and upstream); rebuilt with it on reload (the
    /// registry is process-wide, so counts carry on).
    var metrics: EngineMetrics
    /// Listening sockets by configured address, in the order they were bound.
    var listeners: [WorkerListener] = []
    /// Open client connections.
    var connections = 0
    /// Whether the listeners are held because ``connections`` reached the limit (``checkConnectionLimit()``).
    private(set) var atConnectionLimit = false
    private var lastLimitReport: UInt64 = 0
    /// Exchanges completed on this worker (see `StartupPages.exchangesCompleted`).
    var exchangesCompleted = 0
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

    /// CSPRNG words for new boundaries, 64 per `getrandom` call (32 requests).
    private var randomWords = SystemRandomWords(batch: 64)

    /// A fresh boundary for a re-encoded body.
    func freshBoundary() -> Boundary {
        Boundary.random(using: &randomWords)
    }

    /// Access lines waiting for the end of the loop turn (when the events batch them).
    private lazy var accessLines = AccessLineBatch(base: loop.base, descriptor: 1)

    /// Reports a response's access line: into the batch when the events provide the line's bytes, else
    /// through ``EngineEvents/onAccess``.
    func access(_ method: String, _ target: String, _ status: Int, _ route: String) {
        if let append = events.appendAccessLine {
            accessLines.append { append(method, target, status, route, &$0) }
        } else {
            events.access(method, target, status, route)
        }
    }

    /// The `Date` value for now, made at most once a second (the loop's cached time).
    func httpDate() -> String {
        var now = timeval()
        _ = event_base_gettimeofday_cached(loop.base, &now)
        if now.tv_sec != dateSecond {
            dateSecond = now.tv_sec
            dateText = HTTPDate.string(secondsSinceEpoch: Int64(now.tv_sec))
        }
        return dateText
    }
    private var dateSecond = -1
    private var dateText = ""

    /// A request id for audit lines: the worker's random prefix and a counter.
    func nextRequestID() -> RequestID {
        requestCounter += 1
        return RequestID(prefix: requestPrefix, number: requestCounter)
    }

    init(settings: EngineSettings, events: EngineEvents) {
        self.settings = settings
        self.snapshot = SettingsSnapshot(settings)
        self.routeUpstreams = Self.upstreams(ofRoutesIn: settings)
        self.events = events
        self.metrics = EngineMetrics(settings: settings)
        pool.admits = { [unowned self] connection in
            // Made under the settings the worker still serves: kept without a lookup.
            connection.generation == self.settings.generation
                || self.settings.upstreams[connection.settings.name]?.keepsConnections(of: connection.settings) ?? false
        }
    }

    /// Runs `body` with the worker's head buffer, empty; one buffer serves every head the worker writes (the loop
    /// runs one callback at a time). A buffer grown past 64 KiB by a large head is dropped afterwards.
    func withHeadBuffer<Result>(_ body: (inout [UInt8]) -> Result) -> Result {
        var buffer: [UInt8] = []
        swap(&buffer, &headBuffer)
        buffer.removeAll(keepingCapacity: true)
        if buffer.capacity == 0 { buffer.reserveCapacity(1024) }
        let result = body(&buffer)
        if buffer.capacity <= 64 * 1024 { swap(&buffer, &headBuffer) }
        return result
    }

    private static func upstreams(ofRoutesIn settings: EngineSettings) -> [RouteUpstream?] {
        settings.routes.map { route in settings.upstreams[route.upstream].map(RouteUpstream.init) }
    }

    /// Binds a listener on this worker's loop; returns the bound address.
    /// - Parameters:
    ///   - address: where to bind (for every worker but the first, the first one's bound address).
    ///   - configured: the address as configured (port 0 included): what a reload compares.
    ///   - tls: TLS for accepted connections (a reload may replace it).
    func listen(_ address: SocketAddress, configured: SocketAddress, tls: (any ServerTLSProvider)?) throws
        -> SocketAddress
    {
        let entry = WorkerListener(configured: configured, tls: tls)
        entry.listener = try Listener(loop: loop, address: address) { [unowned self, unowned entry] descriptor, peer in
            self.accept(descriptor, peer, entry.tls)
        }
        entry.listener!.onAcceptFailure = { [unowned self] message in self.events.log(message) }
        if atConnectionLimit { entry.listener!.hold(true) }
        listeners.append(entry)
        return entry.listener!.address
    }

    private func accept(_ descriptor: Int32, _ peer: SocketAddress, _ tls: (any ServerTLSProvider)?) {
        guard !draining else {
            _ = evutil_closesocket(descriptor)
            return
        }
        if let connection = ClientConnection(worker: self, descriptor: descriptor, peer: peer, tls: tls) {
            clients[ObjectIdentifier(connection)] = connection
        }
        if connections >= settings.maxConnectionsPerWorker { checkConnectionLimit() }
    }

    /// Holds the listeners while ``connections`` is at `max_connections` (this worker's share), as nginx stops
    /// accepting at `worker_connections`: new connections wait in the kernel's listen queue (and are accepted
    /// once a connection closes) instead of costing descriptors and memory beyond the limit. Logged at most
    /// once a second.
    func checkConnectionLimit() {
        let full = connections >= settings.maxConnectionsPerWorker
        guard full != atConnectionLimit else { return }
        atConnectionLimit = full
        for entry in listeners { entry.listener?.hold(full) }
        guard full else { return }
        if lastLimitReport == 0 || MonotonicClock.elapsed(since: lastLimitReport) >= 1_000_000_000 {
            lastLimitReport = MonotonicClock.now()
            events.log(
                "connection limit reached: \(connections) client connections on this worker (max_connections); "
                    + "accepting waits until one closes")
        }
    }

    /// A client connection closed. (Removed by its identity: filtering the whole table on every close made
    /// closing n connections cost O(n²), 3.3 s of a blocked loop for 8,000.)
    func connectionClosed(_ connection: ClientConnection) {
        clients.removeValue(forKey: ObjectIdentifier(connection))
        if atConnectionLimit { checkConnectionLimit() }
        if draining, connections == 0 { finishDrain() }
    }

    /// Stops accepting; idle connections close now, busy ones after their current exchange.
    func beginDrain(timeout: Duration) {
        guard !draining else { return }
        draining = true
        for entry in listeners { entry.close() }
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
        if events.appendAccessLine != nil { accessLines.close() }
        pool.closeAll()
        if let drainTimer {
            event_free(drainTimer)
            self.drainTimer = nil
        }
        listeners.removeAll()
        clients.removeAll()
    }
}

/// A route's upstream settings behind one reference (``Worker/routeUpstreams``).
final class RouteUpstream {
    let settings: UpstreamSettings
    init(_ settings: UpstreamSettings) { self.settings = settings }
}
