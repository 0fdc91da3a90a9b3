import CoreMetrics
import Foundation
import Testing

@testable import partgate

/// The registry behind `/metrics`: the exposition text of each series type, label escaping, one series per
/// name and label set, and registration that stays linear in the number of series.
@Suite struct MetricsRegistryTests {
    static func text(_ registry: MetricsRegistry) -> String {
        String(decoding: registry.render(), as: UTF8.self)
    }

    @Test func countersGaugesAndHistogramsRender() {
        let registry = MetricsRegistry(help: ["c_total": "Things counted.\nSecond line \\ backslash."])
        let counter = registry.counter("c_total", [("route", "a")])
        counter.increment(by: 3)
        counter.increment(by: -5)  // a counter never goes down
        registry.counter("c_total", [("route", "b\"\\\nq")]).increment(by: 1)
        let gauge = registry.gauge("g", [])
        gauge.increment(by: 2)
        gauge.decrement(by: 0.5)
        let histogram = registry.histogram("h_seconds", [("u", "x")], bounds: [1, 0.5, 2.5])
        for value in [0.25, 0.5, 0.75, 3.0] { histogram.record(value) }
        let timer = registry.histogram("t_seconds", [], bounds: [0.001, 1], scale: 1e-9)
        timer.recordNanoseconds(2_000_000)
        #expect(
            Self.text(registry) == """
                # HELP c_total Things counted.\\nSecond line \\\\ backslash.
                # TYPE c_total counter
                c_total{route="a"} 3
                c_total{route="b\\"\\\\\\nq"} 1
                # TYPE g gauge
                g 1.5
                # TYPE h_seconds histogram
                h_seconds_bucket{u="x",le="0.5"} 2
                h_seconds_bucket{u="x",le="1"} 3
                h_seconds_bucket{u="x",le="2.5"} 3
                h_seconds_bucket{u="x",le="+Inf"} 4
                h_seconds_sum{u="x"} 4.5
                h_seconds_count{u="x"} 4
                # TYPE t_seconds histogram
                t_seconds_bucket{le="0.001"} 0
                t_seconds_bucket{le="1"} 1
                t_seconds_bucket{le="+Inf"} 1
                t_seconds_sum 0.002
                t_seconds_count 1

                """)
    }

    /// The same name and labels is the same series (a reload's new handles count on); label order matters as
    /// swift-metrics passes it (the engine always passes one order).
    @Test func sameLabelsSameSeries() {
        let registry = MetricsRegistry()
        let first = registry.counter("c_total", [("route", "a"), ("status", "200")])
        let again = registry.counter("c_total", [("route", "a"), ("status", "200")])
        #expect(first === again)
        #expect(first !== registry.counter("c_total", [("route", "a"), ("status", "201")]))
    }

    /// Through swift-metrics, as the engine makes its handles: Counter, Meter, aggregating and plain
    /// Recorders, Timer.
    @Test func factoryMapsSwiftMetricsTypes() {
        let registry = MetricsRegistry()
        var factory = RegistryMetricsFactory(registry: registry, defaultBuckets: [0.1, 1])
        factory.valueBuckets["d_seconds"] = [0.5]
        (factory.makeCounter(label: "c_total", dimensions: []) as! CounterSeries).increment(by: 2)
        factory.makeMeter(label: "m", dimensions: [("k", "v")]).increment(by: 4)
        factory.makeRecorder(label: "d_seconds", dimensions: [], aggregate: true).record(0.25)
        factory.makeRecorder(label: "g", dimensions: [], aggregate: false).record(Int64(7))
        factory.makeTimer(label: "t_seconds", dimensions: []).recordNanoseconds(500_000_000)
        let text = Self.text(registry)
        #expect(text.contains("# TYPE c_total counter\nc_total 2\n"))
        #expect(text.contains("# TYPE m gauge\nm{k=\"v\"} 4\n"))
        #expect(text.contains("d_seconds_bucket{le=\"0.5\"} 1\nd_seconds_bucket{le=\"+Inf\"} 1\n"))
        #expect(text.contains("# TYPE g gauge\ng 7\n"))
        #expect(text.contains("t_seconds_bucket{le=\"0.1\"} 0\nt_seconds_bucket{le=\"1\"} 1\n"))
    }

    /// 48,000 series of one family (16,000 routes' worth of 3 per route, as serve makes at start-up) register
    /// in linear time: swift-prometheus 2.4.1 copied the family per new series and took ~10 s for this. The
    /// bound is a work count, not a clock: the family's index is a dictionary, so each registration is one
    /// insert, and rendering visits each series once.
    @Test func manySeriesRegisterAndRender() {
        let registry = MetricsRegistry()
        for route in 0..<48_000 { registry.counter("r_total", [("route", "r\(route)")]).increment(by: 1) }
        let text = Self.text(registry)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 48_001)
        #expect(lines.last == "r_total{route=\"r47999\"} 1")
    }

    /// Counters and gauges are atomic: two threads adding at once lose nothing.
    @Test func concurrentUpdates() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("c_total", [])
        let gauge = registry.gauge("g", [])
        let histogram = registry.histogram("h", [], bounds: [1])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<10_000 {
                        counter.increment(by: 1)
                        gauge.increment(by: 1)
                        histogram.record(0.5)
                    }
                }
            }
        }
        #expect(counter.count == 40_000)
        #expect(gauge.value == 40_000)
        #expect(histogram.totals.count == 40_000)
    }
}
