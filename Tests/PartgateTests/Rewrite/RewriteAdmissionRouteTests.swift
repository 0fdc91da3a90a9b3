import Foundation
import LoopbackTestSupport
import Testing

/// Route-dependent admission in `partgate rewrite` and `partgate serve`: a report-only route forwards the
/// bodies its policy refuses (`other_bodies: reject`) and logs `would_refuse`; look-alike field names stay
/// refused; a route's own `header_bytes`/`header_count` answer 431.
@Suite("partgate rewrite and serve: report-only other bodies, route head limits", .serialized)
struct RewriteAdmissionRouteTests {
    /// Routes: `/report` report-only with a rule (other_bodies defaults to reject), `/enforce` the same
    /// enforcing, `/tight` with lower head limits, and a catch-all.
    static func yaml(upstream: [String] = ["url: http://127.0.0.1:9"]) -> String {
        (["version: 1", "listeners: [{ address: 127.0.0.1:0 }]", "upstreams:", "  echo:"]
            + upstream.map { "    " + $0 }
            + [
                "routes:",
                "  - name: report",
                "    match: { path_prefix: /report }",
                "    upstream: echo",
                "    report_only: true",
                "    rules: [{ name: drop-internal, match: { field: \"internal_*\" }, strip: true }]",
                "  - name: enforce",
                "    match: { path_prefix: /enforce }",
                "    upstream: echo",
                "    rules: [{ name: drop-internal, match: { field: \"internal_*\" }, strip: true }]",
                "  - name: tight",
                "    match: { path_prefix: /tight }",
                "    upstream: echo",
                "    limits: { header_bytes: 200, header_count: 5 }",
                "  - name: rest",
                "    upstream: echo",
            ]).joined(separator: "\n") + "\n"
    }

    static let json = Array(#"{"internal_token":"secret"}"#.utf8)

    /// Runs `partgate rewrite` on `request` with the routes above.
    static func rewrite(_ request: [UInt8]) throws -> PartgateBinary.Result {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let config = try workspace.write(yaml(), to: "routes.yaml")
        return try RawRequest.rewrite(request, config: config)
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func rewriteForwardsOtherBodiesOnAReportOnlyRoute() throws {
        let result = try Self.rewrite(RawRequest.post("/report/x", contentType: "application/json", body: Self.json))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.startLine == "POST /report/x HTTP/1.1")
        #expect(upstream.body == Self.json)
        #expect(upstream.field("content-type") == "application/json")
        let logged = Self.lines(result.stderr)
        #expect(logged.count == 1)
        #expect(logged.first?["msg"] as? String == "would_refuse")
        #expect(logged.first?["status"] as? Int == 415)
        #expect(logged.first?["flag"] as? String == "other_body")
        #expect(logged.first?["route"] as? String == "report")
        #expect(logged.first?["report_only"] as? Bool == true)

        let enforced = try Self.rewrite(RawRequest.post("/enforce/x", contentType: "application/json", body: Self.json))
        #expect(enforced.status == 3)
        let answer = try PrintedMessage(enforced.stdoutBytes)
        #expect(answer.status == 415 && answer.json?["flag"] as? String == "other_body")
        #expect(enforced.stderr.isEmpty)
    }

    @Test func rewriteRefusesLookalikesOnAReportOnlyRoute() throws {
        let request = RawRequest.post(
            "/report/x", contentType: nil, body: Self.json, fields: ["Content_-Type: application/json"])
        let result = try Self.rewrite(request)
        #expect(result.status == 3)
        let answer = try PrintedMessage(result.stdoutBytes)
        #expect(answer.status == 400 && answer.json?["flag"] as? String == "ambiguous_header_name")
        #expect(!result.stderr.contains("would_refuse"))
    }

    @Test func rewriteAppliesTheRouteHeadLimits() throws {
        let fieldsOver = ["A: 1", "B: 2", "C: 3"]  // with Host, Content-Type, Content-Length: 6 fields
        let counted = try Self.rewrite(
            RawRequest.post("/tight", contentType: "text/plain", body: [0x61], fields: fieldsOver))
        #expect(counted.status == 3)
        #expect(try PrintedMessage(counted.stdoutBytes).json?["flag"] as? String == "too_many_fields")
        let long = ["X-Long: " + String(repeating: "v", count: 200)]
        let sized = try Self.rewrite(RawRequest.post("/tight", contentType: "text/plain", body: [0x61], fields: long))
        #expect(sized.status == 3)
        let answer = try PrintedMessage(sized.stdoutBytes)
        #expect(answer.status == 431 && answer.json?["flag"] as? String == "head_too_large")
        let under = try Self.rewrite(
            RawRequest.post("/tight", contentType: "text/plain", body: [0x61], fields: ["A: 1"]))
        #expect(under.status == 0, "stderr: \(under.stderr)")
        for fields in [fieldsOver, long] {
            let other = try Self.rewrite(
                RawRequest.post("/other", contentType: "text/plain", body: [0x61], fields: fields))
            #expect(other.status == 0, "stderr: \(other.stderr)")
        }
    }

    @Test func serveLogsWouldRefuseAndAppliesRouteHeadLimits() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (process, ports) = try fixture.serve(Self.yaml(upstream: fixture.echoUpstream()))
        defer { process.kill() }
        func send(_ request: [UInt8]) throws -> TestHTTPClient.Response? {
            let client = try TestHTTPClient(port: ports[0])
            client.send(request)
            return client.readResponse()
        }
        let forwarded = try send(RawRequest.post("/report/x", contentType: "application/json", body: Self.json))
        #expect(forwarded?.status == 200)
        let line = process.waitForLog("would_refuse")
        #expect(line?["status"] as? Int == 415)
        #expect(line?["flag"] as? String == "other_body")
        #expect(line?["route"] as? String == "report")
        #expect(line?["target"] as? String == "/report/x")
        #expect(fixture.recorder.records.last?.bodyBytes == Int64(Self.json.count))
        let refused = try send(RawRequest.post("/enforce/x", contentType: "application/json", body: Self.json))
        #expect(refused?.status == 415)
        let limited = try send(
            RawRequest.post("/tight", contentType: "text/plain", body: [0x61], fields: ["A: 1", "B: 2", "C: 3"]))
        #expect(limited?.status == 431)
        #expect(limited?.json?["flag"] as? String == "too_many_fields")
        #expect(fixture.recorder.records.count == 1)
        process.expectCleanStop()
    }
}
