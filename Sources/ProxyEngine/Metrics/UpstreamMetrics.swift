import CoreMetrics

/// The metric handles of one upstream, made once per settings snapshot (not per request): connection
/// failures, response latency and the idle pool size. The handles are thread-safe and shared by every
/// worker (the Prometheus registry hands out one series per name and labels).
package final class UpstreamMetrics: Sendable {
    /// The upstream's name (the `upstream` label).
    package let name: String
    /// Connections that failed before they were established: refused, unreachable, timed out, closed.
    let connectFailures: Counter
    /// Connections that failed with an OpenSSL error (handshake, verification, a TLS alert later).
    let tlsFailures: Counter
    /// From handing a request to a connection (head written to it) to the response head.
    /// Seconds, recorded straight into the factory's handler (``RouteMetrics/duration``).
    let latency: any RecorderHandler
    /// Idle keep-alive connections in the workers' pools.
    let idleConnections: Meter

    /// - Parameter name: the upstream's name.
    package init(name: String) {
        self.name = name
        let labels = [("upstream", name)]
        connectFailures = Counter(label: MetricName.upstreamConnectFailures, dimensions: labels)
        tlsFailures = Counter(label: MetricName.upstreamTLSFailures, dimensions: labels)
        latency = MetricsSystem.factory.makeRecorder(label: MetricName.upstreamLatency, dimensions: labels, aggregate: true)
        idleConnections = Meter(label: MetricName.upstreamIdleConnections, dimensions: labels)
    }
}
