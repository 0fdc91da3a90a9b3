/// A whole partgate configuration (the YAML file, `version: 1`), validated and with every default filled in.
///
/// An immutable snapshot: the engine swaps whole values on reload. Paths are absolute (the loader resolves
/// them against the configuration file's folder), every route names a defined upstream and listener
/// addresses do not conflict.
public struct ProxyConfiguration: Sendable, Hashable {
    /// The only configuration format version this build reads.
    public static let currentVersion = 1

    /// The format version (`version:`, required, must be 1).
    public var version: Int
    /// Worker threads, one event loop each (`workers:`, default `auto`).
    public var workers: WorkerCount
    /// The most client connections open at once, over all workers (`max_connections:`, default `auto`).
    public var maxConnections: ConnectionLimit
    /// Where clients connect (`listeners:`, at least one).
    public var listeners: [ListenerConfiguration]
    /// The metrics and health listener (`admin:`, default nil: none).
    public var admin: AdminConfiguration?
    /// The backends by name (`upstreams:`, at least one).
    public var upstreams: [String: UpstreamConfiguration]
    /// The global request limits (`limits:`, default: the ``RequestLimits`` defaults);
    /// each route holds its own merged copy in ``RouteConfiguration/limits``.
    public var limits: RequestLimits
    /// The routes, first match wins (`routes:`, at least one).
    public var routes: [RouteConfiguration]

    /// - Parameters:
    ///   - workers: worker threads (default `auto`).
    ///   - maxConnections: client connections open at once (default `auto`).
    ///   - listeners: client listeners (default none).
    ///   - admin: admin listener (default nil).
    ///   - upstreams: backends by name (default none).
    ///   - limits: global limits (default: ``RequestLimits`` defaults).
    ///   - routes: routes in match order (default none).
    public init(
        workers: WorkerCount = .auto,
        maxConnections: ConnectionLimit = .auto,
        listeners: [ListenerConfiguration] = [],
        admin: AdminConfiguration? = nil,
        upstreams: [String: UpstreamConfiguration] = [:],
        limits: RequestLimits = RequestLimits(),
        routes: [RouteConfiguration] = []
    ) {
        self.version = Self.currentVersion
        self.workers = workers
        self.maxConnections = maxConnections
        self.listeners = listeners
        self.admin = admin
        self.upstreams = upstreams
        self.limits = limits
        self.routes = routes
    }

    /// The first route that takes the request, or nil (the engine answers 404).
    /// - Parameters:
    ///   - host: the request host without port.
    ///   - path: the request path, possibly with `?query`.
    ///   - method: the request method.
    public func route(host: String, path: String, method: String) -> RouteConfiguration? {
        routes.first { $0.match.matches(host: host, path: path, method: method) }
    }

    /// The number of rules over all routes.
    public var ruleCount: Int { routes.reduce(0) { $0 + $1.rules.count } }
}
