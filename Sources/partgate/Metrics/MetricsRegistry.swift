import Synchronization

/// The process's metric series and their Prometheus text exposition (format 0.0.4), with `# HELP` and `# TYPE`.
///
/// Registering a series is a dictionary insert under a lock, whatever the number of series. swift-prometheus
/// 2.4.1's registry copied a family's whole label dictionary for each new series, so a configuration with
/// 16,000 routes took 10 s to start (3 series per route at start-up, O(series²)).
///
/// Asking again for a name and label set returns the series already made, so a reload (new handles for
/// the same routes) keeps counting into the same series. Series are never removed: a route a reload drops
/// keeps its last values, as a Prometheus counter must not go backwards while the process lives.
final class MetricsRegistry: Sendable {
    /// The exposition type of a family.
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    private struct Family {
        let name: String
        let kind: Kind
        let help: String?
        /// Histogram bucket upper bounds (ascending, +Inf implied).
        let bounds: [Double]
        /// Series index by rendered label text.
        var index: [String: Int] = [:]
        /// Rendered label text (`route="a",status="200"`, empty without labels) and the series.
        var series: [(labels: String, metric: any MetricSeries)] = []
    }

    private struct State {
        var families: [Family] = []
        var familyIndex: [String: Int] = [:]
    }

    private let state = Mutex(State())
    /// Help text by metric name.
    private let help: [String: String]

    /// - Parameter help: the `# HELP` text of each metric name (a name without one gets no HELP line).
    init(help: [String: String] = [:]) {
        self.help = help
    }

    /// The counter `name{labels}`.
    func counter(_ name: String, _ labels: [(String, String)]) -> CounterSeries {
        series(name, .counter, labels, bounds: []) { _ in CounterSeries() }
    }

    /// The gauge `name{labels}`.
    func gauge(_ name: String, _ labels: [(String, String)]) -> GaugeSeries {
        series(name, .gauge, labels, bounds: []) { _ in GaugeSeries() }
    }

    /// The histogram `name{labels}` with `bounds` (the first registration of a name sets them for every series).
    /// - Parameter scale: what a recorded value is multiplied by (`1e-9` for a timer's nanoseconds as seconds).
    func histogram(_ name: String, _ labels: [(String, String)], bounds: [Double], scale: Double = 1) -> HistogramSeries {
        series(name, .histogram, labels, bounds: bounds.sorted()) { bounds in HistogramSeries(bounds: bounds, scale: scale) }
    }

    private func series<Series: MetricSeries>(
        _ name: String, _ kind: Kind, _ labels: [(String, String)], bounds: [Double],
        make: ([Double]) -> Series
    ) -> Series {
        let text = Exposition.labels(labels)
        return state.withLock { state in
            let familyIndex: Int
            if let found = state.familyIndex[name] {
                familyIndex = found
            } else {
                familyIndex = state.families.count
                state.families.append(Family(name: name, kind: kind, help: help[name], bounds: bounds))
                state.familyIndex[name] = familyIndex
            }
            precondition(state.families[familyIndex].kind == kind, "metric \(name) registered as two types")
            if let found = state.families[familyIndex].index[text] {
                // The same name and labels as a series of another Swift type is a programming error.
                return state.families[familyIndex].series[found].metric as! Series
            }
            let made = make(state.families[familyIndex].bounds)
            state.families[familyIndex].index[text] = state.families[familyIndex].series.count
            state.families[familyIndex].series.append((text, made))
            return made
        }
    }

    /// The exposition of every series, families in the order they were first registered.
    func render() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16_384)
        state.withLock { state in
            for family in state.families where !family.series.isEmpty {
                if let help = family.help {
                    Exposition.append("# HELP \(family.name) \(Exposition.escapeHelp(help))\n", to: &out)
                }
                Exposition.append("# TYPE \(family.name) \(family.kind.rawValue)\n", to: &out)
                for (labels, metric) in family.series {
                    metric.render(name: family.name, labels: labels, into: &out)
                }
            }
        }
        return out
    }
}
