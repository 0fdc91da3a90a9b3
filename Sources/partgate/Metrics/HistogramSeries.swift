import CoreMetrics
import Synchronization

/// A histogram with fixed upper bounds: a swift-metrics aggregating `Recorder`, or a `Timer` (nanoseconds
/// recorded as seconds through `scale`). One uncontended lock per value, as swift-prometheus' histograms.
final class HistogramSeries: MetricSeries, RecorderHandler, TimerHandler {
    private struct State {
        /// Values at or under each bound (not cumulative); the last slot counts values above every bound.
        var counts: [Int64]
        var sum: Double = 0
        var count: Int64 = 0
    }

    /// Upper bounds, ascending.
    let bounds: [Double]
    private let scale: Double
    private let state: Mutex<State>

    init(bounds: [Double], scale: Double) {
        self.bounds = bounds
        self.scale = scale
        state = Mutex(State(counts: [Int64](repeating: 0, count: bounds.count + 1)))
    }

    func record(_ value: Int64) { observe(Double(value) * scale) }
    func record(_ value: Double) { observe(value * scale) }
    func recordNanoseconds(_ duration: Int64) { observe(Double(duration) * scale) }

    private func observe(_ value: Double) {
        guard !value.isNaN else { return }
        // Bounds are few (14 for durations): a linear scan beats a binary search's branches.
        var slot = 0
        while slot < bounds.count, value > bounds[slot] { slot += 1 }
        state.withLock { state in
            state.counts[slot] += 1
            state.sum += value
            state.count += 1
        }
    }

    /// The number of values and their sum.
    var totals: (count: Int64, sum: Double) {
        state.withLock { ($0.count, $0.sum) }
    }

    func render(name: String, labels: String, into out: inout [UInt8]) {
        let (counts, sum, count) = state.withLock { ($0.counts, $0.sum, $0.count) }
        let separator = labels.isEmpty ? "" : ","
        var cumulative: Int64 = 0
        for (slot, bound) in bounds.enumerated() {
            cumulative += counts[slot]
            Exposition.sample(
                name + "_bucket", labels + separator + "le=\"\(Exposition.number(bound))\"", String(cumulative),
                into: &out)
        }
        Exposition.sample(name + "_bucket", labels + separator + "le=\"+Inf\"", String(count), into: &out)
        Exposition.sample(name + "_sum", labels, Exposition.number(sum), into: &out)
        Exposition.sample(name + "_count", labels, String(count), into: &out)
    }
}
