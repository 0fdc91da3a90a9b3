import CoreMetrics

/// swift-metrics' factory over a ``MetricsRegistry``: counters, meters and gauges as they are, aggregating
/// recorders as histograms with the buckets set per name, timers as histograms in seconds.
///
/// `destroy…` keeps the series (see ``MetricsRegistry``): the engine never destroys a handle, and a series
/// that vanished between two scrapes would read as a counter reset.
struct RegistryMetricsFactory: MetricsFactory {
    let registry: MetricsRegistry
    /// Bucket bounds of aggregating recorders by metric name (seconds for partgate's durations).
    var valueBuckets: [String: [Double]] = [:]
    /// Bucket bounds of recorders without their own, and of timers, in seconds.
    var defaultBuckets: [Double]

    init(registry: MetricsRegistry, defaultBuckets: [Double]) {
        self.registry = registry
        self.defaultBuckets = defaultBuckets
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.counter(label, dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.gauge(label, dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.gauge(label, dimensions) }
        return registry.histogram(label, dimensions, bounds: valueBuckets[label] ?? defaultBuckets)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.histogram(label, dimensions, bounds: defaultBuckets, scale: 1e-9)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
