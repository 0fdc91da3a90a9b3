import Foundation
import CoreMetrics
import ProxyEngine

/// The process-wide metrics registry: swift-metrics bootstrapped once with a factory over it, so that the
/// engine's `CoreMetrics` handles (made per configuration snapshot, never per request) land in one registry
/// that outlives any snapshot. `/metrics` renders it.
enum PartgateMetrics {
    /// Every partgate series; independent of the configuration, so a reload keeps counting into it.
    static let registry = MetricsRegistry(help: MetricName.help)

    /// Histogram buckets for durations (request duration, upstream latency), in seconds: 1 ms to 60 s.
    static let durationBuckets: [Double] = [
        0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
    ]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var bootstrapped = false

    /// Bootstraps swift-metrics with the registry (once per process; later calls do nothing).
    static func bootstrap() {
        lock.lock()
        defer { lock.unlock() }
        guard !bootstrapped else { return }
        bootstrapped = true
        var factory = RegistryMetricsFactory(registry: registry, defaultBuckets: durationBuckets)
        // The engine records its durations as seconds in Double histograms (cheaper per value than Durations).
        factory.valueBuckets[MetricName.requestDuration] = durationBuckets
        factory.valueBuckets[MetricName.upstreamLatency] = durationBuckets
        MetricsSystem.bootstrap(factory)
    }

    /// The Prometheus text exposition of every series.
    static func render() -> [UInt8] {
        registry.render()
    }
}
