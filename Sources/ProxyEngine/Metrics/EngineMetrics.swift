import CoreMetrics
import Multipart
import Policy

/// One worker's metric handles, resolved from its settings snapshot when the worker is made: one
/// ``RouteMetrics`` per route (by route index), one ``UpstreamMetrics`` per upstream, the strict-flag
/// counters and the open-connection gauge.
///
/// The handles come from swift-metrics (`CoreMetrics`); the `partgate` executable bootstraps the
/// process-wide factory (a Prometheus registry) before it makes the engine, and without a bootstrap they
/// cost nothing (swift-metrics' no-op factory). The registry is process-wide and independent of the
/// settings: a new snapshot (a reload) makes new handles for the very same series.
final class EngineMetrics {
    /// By route index in the settings' `routes`.
    let routes: [RouteMetrics]
    /// The requests no route took (`route="-"`).
    let unrouted: RouteMetrics
    /// By upstream name: for the pool and the connections of upstreams no route names (lookups at
    /// connection time only).
    let upstreams: [String: UpstreamMetrics]
    /// Open client connections (all workers).
    let openConnections: Meter
    /// Client TLS handshakes that failed (all workers).
    let clientTLSHandshakeFailures: Counter
    /// Strict flags refused and normalised, by ``StrictFlag`` case index.
    private let strictRejected: [Counter?]
    private let strictNormalized: [Counter?]
    private static let flags = StrictFlag.allCases

    init(settings: EngineSettings) {
        var upstreams: [String: UpstreamMetrics] = [:]
        for name in settings.upstreams.keys.sorted() { upstreams[name] = UpstreamMetrics(name: name) }
        for route in settings.routes where upstreams[route.upstream] == nil {
            upstreams[route.upstream] = UpstreamMetrics(name: route.upstream)
        }
        self.upstreams = upstreams
        routes = settings.routes.map { RouteMetrics(name: $0.name, upstream: upstreams[$0.upstream]) }
        unrouted = RouteMetrics(name: MetricName.noRoute, upstream: nil)
        openConnections = Meter(label: MetricName.openClientConnections)
        clientTLSHandshakeFailures = Counter(label: MetricName.clientTLSHandshakeFailures)
        // Only the pairs a configuration can produce: every flag can reject, some can normalise.
        func counters(_ action: StrictAction) -> [Counter?] {
            Self.flags.map { flag in
                guard flag.permittedActions.contains(action) else { return nil }
                return Counter(
                    label: MetricName.strictFlagHits,
                    dimensions: [("flag", flag.rawValue), ("action", action.rawValue)])
            }
        }
        strictRejected = counters(.reject)
        strictNormalized = counters(.normalize)
    }

    /// Counts a strict flag that fired with `action` (`allow` is not counted: it records nothing).
    func countStrictFlag(_ flag: StrictFlag, _ action: StrictAction) {
        guard let index = Self.flags.firstIndex(of: flag) else { return }
        switch action {
        case .reject: strictRejected[index]?.increment()
        case .normalize: strictNormalized[index]?.increment()
        case .allow: break
        }
    }
}
