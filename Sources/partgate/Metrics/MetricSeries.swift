/// One series of a ``MetricsRegistry`` family: it writes its own sample lines.
protocol MetricSeries: AnyObject, Sendable {
    /// Appends the series' sample lines for metric `name` with the rendered `labels` (may be empty).
    func render(name: String, labels: String, into out: inout [UInt8])
}
