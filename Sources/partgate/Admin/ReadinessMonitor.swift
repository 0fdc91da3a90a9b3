import Foundation
import Policy
import ProxyEngine

/// Decides `/readyz`: ready when the listeners are bound, the configuration is loaded, every upstream's host
/// resolved at start and still resolves, and the process is not draining.
///
/// Hosts are re-resolved every ``interval`` on the monitor's own thread (getaddrinfo, bounded by the
/// resolver's own timeout and attempts); `/readyz` only reads the last verdict, so a probe never waits for DNS.
final class ReadinessMonitor: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is only touched while holding `condition`.
    /// An upstream whose host is checked.
    struct Upstream: Sendable {
        var name: String
        var host: String
        var port: UInt16
    }

    /// How often hosts are re-resolved by default.
    static let interval: TimeInterval = 5

    /// Resolves one upstream's host, throwing the reason it does not resolve.
    typealias Resolve = @Sendable (_ host: String, _ port: UInt16) throws -> Void

    private let interval: TimeInterval
    private let resolve: Resolve

    private var upstreams: [Upstream]
    private let condition = NSCondition()
    private var listenersBound = false
    private var draining = false
    private var stopped = false
    /// Upstreams left out of the running configuration: their host did not resolve at start.
    private var unresolvedAtStart: [String: String] = [:]
    /// The last re-check's failures, by upstream name.
    private var failing: [String: String] = [:]
    private var thread: Thread?

    /// - Parameters:
    ///   - upstreams: the configuration's upstreams (name, host, port).
    ///   - interval: time between re-checks (tests shorten it).
    ///   - resolve: the resolver (getaddrinfo through ``SocketAddress/resolve(host:port:)``; tests inject one).
    init(
        upstreams: [Upstream], interval: TimeInterval = ReadinessMonitor.interval,
        resolve: @escaping Resolve = { host, port in _ = try SocketAddress.resolve(host: host, port: port) }
    ) {
        self.upstreams = upstreams.sorted { $0.name < $1.name }
        self.interval = interval
        self.resolve = resolve
    }

    /// Records an upstream whose host did not resolve at start (its routes answer 502).
    func unresolvedAtStart(_ name: String, reason: String) {
        condition.lock()
        unresolvedAtStart[name] = reason
        condition.unlock()
    }

    /// The upstreams of a configuration, as the monitor checks them.
    static func upstreams(of configuration: ProxyConfiguration) -> [Upstream] {
        configuration.upstreams.map { name, upstream in
            Upstream(name: name, host: upstream.url.host, port: upstream.url.port)
        }
    }

    /// A reload took effect (every host of `upstreams` resolved): re-check these from now on.
    func reloaded(upstreams: [Upstream]) {
        condition.lock()
        self.upstreams = upstreams.sorted { $0.name < $1.name }
        unresolvedAtStart = [:]
        failing = [:]
        condition.unlock()
    }

    /// The listeners are bound: starts the periodic re-check.
    func listenersAreBound() {
        condition.lock()
        listenersBound = true
        condition.unlock()
        let thread = Thread { [self] in run() }
        thread.name = "partgate-readiness"
        self.thread = thread
        thread.start()
    }

    /// SIGTERM: no longer ready (load balancers stop sending while in-flight requests finish).
    func beginDraining() {
        condition.lock()
        draining = true
        condition.unlock()
    }

    /// Stops the re-check thread.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The current verdict (cheap: no DNS).
    var readiness: AdminReadiness {
        condition.lock()
        defer { condition.unlock() }
        if draining { return AdminReadiness(ready: false, reason: "draining") }
        if !listenersBound { return AdminReadiness(ready: false, reason: "listeners are not bound") }
        if let name = unresolvedAtStart.keys.min() {
            return AdminReadiness(
                ready: false, reason: "upstream \(name) did not resolve at start: \(unresolvedAtStart[name]!)")
        }
        if let name = failing.keys.min() {
            return AdminReadiness(ready: false, reason: "upstream \(name) does not resolve: \(failing[name]!)")
        }
        return AdminReadiness(ready: true)
    }

    private func run() {
        while true {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: interval)
            while !stopped, condition.wait(until: deadline) {}
            let done = stopped
            condition.unlock()
            if done { return }
            condition.lock()
            let checking = upstreams
            condition.unlock()
            var failures: [String: String] = [:]
            for upstream in checking {
                do {
                    try resolve(upstream.host, upstream.port)
                } catch {
                    failures[upstream.name] = String(describing: error)
                }
            }
            condition.lock()
            failing = failures
            condition.unlock()
        }
    }
}
