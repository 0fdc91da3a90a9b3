import CoreMetrics
import Synchronization

/// A value that goes up and down: a swift-metrics `Meter`, or a `Gauge` (a non-aggregating recorder). The
/// Double is kept as its bit pattern in one atomic word; increments are compare-and-swap loops.
final class GaugeSeries: MetricSeries, MeterHandler, RecorderHandler {
    private let bits = Atomic<UInt64>(0.0.bitPattern)

    /// The current value.
    var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }

    func set(_ value: Int64) { set(Double(value)) }
    func set(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }
    func record(_ value: Int64) { set(Double(value)) }
    func record(_ value: Double) { set(value) }
    func increment(by amount: Double) { add(amount) }
    func decrement(by amount: Double) { add(-amount) }

    private func add(_ amount: Double) {
        var old = bits.load(ordering: .relaxed)
        while true {
            let new = (Double(bitPattern: old) + amount).bitPattern
            let (exchanged, original) = bits.weakCompareExchange(
                expected: old, desired: new, successOrdering: .relaxed, failureOrdering: .relaxed)
            if exchanged { return }
            old = original
        }
    }

    func render(name: String, labels: String, into out: inout [UInt8]) {
        Exposition.sample(name, labels, Exposition.number(value), into: &out)
    }
}
