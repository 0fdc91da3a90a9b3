import CoreMetrics
import Policy

/// The metric handles of one route for one worker: requests by status, duration, body bytes, parts by
/// decision and rule, and the route's upstream.
///
/// Made when the worker is made (per settings snapshot), never per request. Series whose label values are
/// only known at run time (a status, a rule) are made on first use and kept in plain arrays: after that a
/// request costs an array index and an atomic add, with no formatting and no hashing. Loop-confined (one per
/// worker); the handles themselves are shared with the other workers through the registry.
final class RouteMetrics {
    /// The route's name (the `route` label).
    let name: String
    /// The route's upstream (nil for the requests no route took).
    let upstream: UpstreamMetrics?
    /// Seconds, as a Double, recorded straight into the factory's handler: a histogram of Doubles compares its
    /// bounds inline, where one of Durations made 14 128-bit comparisons per value, and `Recorder.record` is
    /// generic (unspecialised across the module boundary).
    let duration: any RecorderHandler
    let bytesIn: Counter
    let bytesOut: Counter
    /// Requests by status, indexed by status (100...599), made on first use.
    private var requests = [Counter?](repeating: nil, count: 600)
    /// Parts by rule: the rule's name and its counters by ``partSlot(_:_:)``. A short list scanned by string
    /// equality, once per part (the policy already compared the part against every rule).
    private var parts: [(rule: String, counters: [Counter?])] = []

    init(name: String, upstream: UpstreamMetrics?) {
        self.name = name
        self.upstream = upstream
        let labels = [("route", name)]
        duration = MetricsSystem.factory.makeRecorder(label: MetricName.requestDuration, dimensions: labels, aggregate: true)
        bytesIn = Counter(label: MetricName.bodyBytesIn, dimensions: labels)
        bytesOut = Counter(label: MetricName.bodyBytesOut, dimensions: labels)
    }

    /// Counts one request answered with `status`.
    func countRequest(status: Int) {
        let index = (100..<600).contains(status) ? status : 0
        if let counter = requests[index] {
            counter.increment()
            return
        }
        let counter = Counter(
            label: MetricName.requests,
            dimensions: [("route", name), ("status", index == 0 ? "other" : String(status))])
        requests[index] = counter
        counter.increment()
    }

    /// Counts one part's decision.
    func countPart(_ decision: PartAuditRecord.Decision, reportOnly: Bool, rule: String?) {
        let rule = rule ?? MetricName.noRule
        let slot = Self.partSlot(decision, reportOnly)
        let index: Int
        if let found = parts.firstIndex(where: { $0.rule == rule }) {
            index = found
        } else {
            parts.append((rule, [Counter?](repeating: nil, count: Self.partSlots)))
            index = parts.count - 1
        }
        if let counter = parts[index].counters[slot] {
            counter.increment()
            return
        }
        let counter = Counter(
            label: MetricName.parts,
            dimensions: [
                ("route", name), ("decision", decision.rawValue), ("rule", rule),
                ("report_only", reportOnly ? "true" : "false"),
            ])
        parts[index].counters[slot] = counter
        counter.increment()
    }

    private static let decisions = PartAuditRecord.Decision.allCases
    private static let partSlots = decisions.count * 2

    private static func partSlot(_ decision: PartAuditRecord.Decision, _ reportOnly: Bool) -> Int {
        (decisions.firstIndex(of: decision) ?? 0) * 2 + (reportOnly ? 1 : 0)
    }
}
