import CoreMetrics
import Synchronization

/// A monotonic counter: one atomic add per increment.
final class CounterSeries: MetricSeries, CounterHandler {
    private let value = Atomic<Int64>(0)

    func increment(by amount: Int64) {
        guard amount > 0 else { return }  // a counter never goes down
        value.wrappingAdd(amount, ordering: .relaxed)
    }

    func reset() {
        value.store(0, ordering: .relaxed)
    }

    /// The current count.
    var count: Int64 { value.load(ordering: .relaxed) }

    func render(name: String, labels: String, into out: inout [UInt8]) {
        Exposition.sample(name, labels, String(count), into: &out)
    }
}
