import Foundation
import Metrics
import Prometheus
import ProxyEngine

/// The process-wide metrics registry: swift-metrics bootstrapped once with a Prometheus factory, so that the
/// engine's `CoreMetrics` handles (made per configuration snapshot, never per request) land in one registry
/// that outlives any snapshot. `/metrics` renders it.
enum PartgateMetrics {
    /// Every partgate series; independent of the configuration, so a reload keeps counting into it.
    static let registry = PrometheusCollectorRegistry()

    /// Histogram buckets for durations (request duration, upstream latency): 1 ms to 60 s.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10), .seconds(30), .seconds(60),
    ]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var bootstrapped = false

    /// Bootstraps swift-metrics with the registry (once per process; later calls do nothing).
    static func bootstrap() {
        lock.lock()
        defer { lock.unlock() }
        guard !bootstrapped else { return }
        bootstrapped = true
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        // The engine records its durations as seconds in Double histograms (cheaper per value than Durations).
        let seconds = durationBuckets.map { duration in
            let (whole, attoseconds) = duration.components
            return Double(whole) + Double(attoseconds) / 1e18
        }
        factory.valueHistogramBuckets[MetricName.requestDuration] = seconds
        factory.valueHistogramBuckets[MetricName.upstreamLatency] = seconds
        MetricsSystem.bootstrap(factory)
    }

    /// The Prometheus text exposition of every series.
    static func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}
