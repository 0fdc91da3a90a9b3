import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Route-dependent admission through the engine: a report-only route forwards the bodies its policy refuses
/// and logs the would-be refusal; look-alike field names are refused on every route; a route's own
/// `header_bytes` and `header_count` answer 431.
@Suite("Proxy admission: report-only and route head limits", .serialized)
struct ProxyAdmissionRouteTests {
    /// Values reported from the proxy's thread.
    final class Collected<Value: Sendable>: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var items: [Value] = []
        func add(_ value: Value) { lock.lock(); items.append(value); lock.unlock() }
        var values: [Value] { lock.lock(); defer { lock.unlock() }; return items }
    }

    static func route(reportOnly: Bool, name: String = "policy") -> RouteConfiguration {
        RouteConfiguration(
            name: name, upstream: "echo", reportOnly: reportOnly, audit: true,
            rules: [Rule(name: "drop-internal", match: RuleMatch(field: [try! Glob("internal_*")]), strip: true)])
    }

    static let json = Array(#"{"internal_token":"secret"}"#.utf8)

    static func post(_ contentType: String?, _ body: [UInt8], path: String = "/api", extra: String = "") -> [UInt8] {
        var head = "POST \(path) HTTP/1.1\r\nHost: example.test\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        return Array((head + "Content-Length: \(body.count)\r\n\(extra)\r\n").utf8) + body
    }

    static func send(_ harness: ProxyHarness, _ request: [UInt8]) throws -> TestHTTPClient.Response? {
        let client = try TestHTTPClient(port: harness.port)
        client.send(request)
        return client.readResponse()
    }

    @Test(arguments: [("application/json", "other_body"), (nil, "content_type_missing")] as [(String?, String)])
    func reportOnlyForwardsOtherBodiesAndLogsTheRefusal(contentType: String?, flag: String) throws {
        let refusals = Collected<ReportOnlyRefusal>()
        let problems = Collected<String>()
        let harness = try ProxyHarness(
            route: Self.route(reportOnly: true),
            events: EngineEvents(
                onProblem: { problems.add($0.flag) }, onWouldRefuse: { refusals.add($0) }))
        defer { harness.shutdown() }
        let response = try Self.send(harness, Self.post(contentType, Self.json, path: "/api?x=1"))
        #expect(response?.status == 200)
        let record = try #require(harness.recorder.records.first)
        #expect(record.bodyBytes == Int64(Self.json.count))
        #expect(record.bodySHA256 == Self.json.sha256Hex)
        #expect(record.field("content-type") == contentType)
        #expect(problems.values.isEmpty)
        let refusal = try #require(refusals.values.first)
        #expect(refusals.values.count == 1)
        #expect(refusal.status == 415 && refusal.flag == flag)
        #expect(refusal.route == "policy" && refusal.method == "POST" && refusal.target == "/api?x=1")
        #expect(!refusal.request.isEmpty)

        // The same route enforcing: refused, nothing upstream, nothing reported as would-be.
        let enforcing = try ProxyHarness(
            route: Self.route(reportOnly: false), events: EngineEvents(onWouldRefuse: { refusals.add($0) }))
        defer { enforcing.shutdown() }
        let refused = try Self.send(enforcing, Self.post(contentType, Self.json))
        #expect(refused?.status == 415)
        #expect(refused?.json?["flag"] as? String == flag)
        #expect(enforcing.recorder.records.isEmpty)
        #expect(refusals.values.count == 1)
    }

    /// Access lines go to ``EngineEvents/onAccess`` unless the events say none are wanted (a log level above
    /// info); the request is served the same either way.
    @Test(arguments: [true, false])
    func accessIsReportedOnlyWhenWanted(wanted: Bool) throws {
        let lines = Collected<String>()
        var events = EngineEvents(onAccess: { method, target, status, route in
            lines.add("\(method) \(target) \(status) \(route)")
        })
        events.reportsAccess = wanted
        let harness = try ProxyHarness(route: Self.route(reportOnly: false), events: events)
        defer { harness.shutdown() }
        let body = ProxyHarness.multipart("b0undary", [(name: "a", filename: nil, type: nil, data: Array("1".utf8))])
        let response = try Self.send(harness, ProxyHarness.request(body, boundary: "b0undary", path: "/api?q=1"))
        #expect(response?.status == 200)
        #expect(harness.recorder.records.count == 1)
        #expect(lines.values == (wanted ? ["POST /api?q=1 200 policy"] : []))
    }

    @Test func reportOnlyRoutesStillRefuseLookalikeFieldNames() throws {
        let refusals = Collected<ReportOnlyRefusal>()
        let harness = try ProxyHarness(
            route: Self.route(reportOnly: true), events: EngineEvents(onWouldRefuse: { refusals.add($0) }))
        defer { harness.shutdown() }
        let body = ProxyHarness.multipart("b0undary", [(name: "a", filename: nil, type: nil, data: Array("1".utf8))])
        let response = try Self.send(
            harness, Self.post(nil, body, extra: "Content_-Type: multipart/form-data; boundary=b0undary\r\n"))
        #expect(response?.status == 400)
        #expect(response?.json?["flag"] as? String == "ambiguous_header_name")
        #expect(harness.recorder.records.isEmpty)
        #expect(refusals.values.isEmpty)
    }

    @Test func routeHeaderLimitsAnswer431() throws {
        var tight = RouteConfiguration(name: "tight", match: RouteMatch(pathPrefix: "/tight"), upstream: "echo")
        tight.limits.headerBytes = 200
        tight.limits.headerCount = 4
        let loose = RouteConfiguration(name: "loose", upstream: "echo")
        let harness = try ProxyHarness(settings: { $0.routes = [tight, loose] })
        defer { harness.shutdown() }
        let body = Array("{}".utf8)
        // 3 fields and a short head: under both of the route's limits.
        #expect(try Self.send(harness, Self.post("application/json", body, path: "/tight"))?.status == 200)
        // 5 fields in fewer than 200 bytes: over header_count only.
        let many = "A: 1\r\nB: 2\r\n"
        let counted = try Self.send(harness, Self.post("application/json", body, path: "/tight", extra: many))
        #expect(counted?.status == 431)
        #expect(counted?.json?["flag"] as? String == "too_many_fields")
        // 4 fields but over 200 bytes: over header_bytes only.
        let long = "X-Long: " + String(repeating: "v", count: 200) + "\r\n"
        let sized = try Self.send(harness, Self.post("application/json", body, path: "/tight", extra: long))
        #expect(sized?.status == 431)
        #expect(sized?.json?["flag"] as? String == "head_too_large")
        #expect(sized?.header("content-type") == "application/problem+json")
        // The same heads on a route without overrides pass.
        #expect(try Self.send(harness, Self.post("application/json", body, path: "/other", extra: many))?.status == 200)
        #expect(try Self.send(harness, Self.post("application/json", body, path: "/other", extra: long))?.status == 200)
        #expect(harness.recorder.records.map(\.target) == ["/tight", "/other", "/other"])
    }
}
