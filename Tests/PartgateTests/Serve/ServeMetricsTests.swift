import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// The admin listener through the real binary: after a known sequence of requests, `/metrics` holds exactly
/// the counts they must produce; `/healthz` and `/readyz` answer; readiness is 503 when an upstream's host
/// does not resolve at start.
@Suite("serve: admin listener, metrics and health", .serialized)
struct ServeMetricsTests {
    /// One form part.
    struct Part {
        var name: String
        var filename: String?
        var bytes: [UInt8]
    }

    /// A multipart body with boundary `boundary`, optionally with a preamble and without its close delimiter.
    static func body(
        _ parts: [Part], boundary: String = "metrics-boundary", preamble: String = "",
        closed: Bool = true
    ) -> [UInt8] {
        var bytes = Array(preamble.utf8)
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"\r\nContent-Type: image/jpeg" }
            bytes += Array((head + "\r\n\r\n").utf8) + part.bytes + Array("\r\n".utf8)
        }
        if closed { bytes += Array("--\(boundary)--\r\n".utf8) } else { bytes.removeLast(2) }
        return bytes
    }

    /// POSTs `body` to `path` on its own connection (`Connection: close`); the response.
    static func post(_ port: UInt16, _ path: String, _ body: [UInt8], boundary: String = "metrics-boundary")
        throws -> TestHTTPClient.Response?
    {
        let client = try TestHTTPClient(port: port)
        client.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
        client.send(body)
        return client.readResponse()
    }

    static func config(_ fixture: ServeFixture, deadPort: UInt16) -> String {
        let echo = fixture.echoUpstream().map { "    " + $0 }.joined(separator: "\n")
        return """
            version: 1
            workers: 1
            listeners:
              - address: 127.0.0.1:0
            admin: { address: 127.0.0.1:0 }
            upstreams:
              echo:
            \(echo)
              dead:
                url: http://127.0.0.1:\(deadPort)
            limits:
              drain_timeout: 10s
            routes:
              - name: uploads
                match: { path_prefix: /upload }
                upstream: echo
                rules:
                  - name: drop-internal
                    match: { field: "internal_*" }
                    strip: true
              - name: images
                match: { path_prefix: /images }
                upstream: echo
                rules:
                  - name: no-executables
                    match: { sniffed_type: [application/x-executable, application/x-msdownload] }
                    reject: { status: 415 }
              - name: strict
                match: { path_prefix: /strict }
                upstream: echo
              - name: dead
                match: { path_prefix: /dead }
                upstream: dead

            """
    }

    @Test func metricsCountExactlyWhatAKnownSequenceOfRequestsDid() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let refusing = RefusingPort()  // bound, never listening: connections are refused
        defer { withExtendedLifetime(refusing) {} }
        let deadPort = refusing.port
        let (serve, ports) = try fixture.serve(Self.config(fixture, deadPort: deadPort), listeners: 2)
        defer { serve.kill() }
        let proxy = ports[0]
        let admin = AdminClient(port: ports[1])
        let adminLine = try #require(serve.logLines.first { $0["admin"] as? String == "true" })
        #expect(adminLine["msg"] as? String == "listening")

        // Refusals first, so that the one upstream connection left in the pool is the uploads' one.
        let dead = try TestHTTPClient(port: proxy)
        dead.send("GET /dead HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(dead.readResponse()?.status == 502)
        let executable = Array(try Data(contentsOf: URL(fileURLWithPath: "/bin/ls")).prefix(4096))
        let image = Self.body([Part(name: "avatar", filename: "cat.jpg", bytes: executable)])
        let refused = try Self.post(proxy, "/images", image)
        #expect(refused?.status == 415)
        #expect(refused?.json?["flag"] as? String == "no-executables")
        let malformed = Self.body([Part(name: "title", bytes: Array("hello".utf8))], closed: false)
        let bad = try Self.post(proxy, "/strict", malformed)
        #expect(bad?.status == 400)
        #expect(bad?.json?["flag"] as? String == "missing_final_boundary")

        var sent: Int64 = 0
        for index in 0..<3 {
            // The first form has two passing parts in a row: they are counted as one run.
            let caption = index == 0 ? [Part(name: "caption", bytes: Array("a caption".utf8))] : []
            let body = Self.body(
                [Part(name: "title", bytes: Array("upload \(index)".utf8))] + caption + [
                    Part(name: "internal_note", bytes: Array(repeating: UInt8(ascii: "x"), count: 100 * (index + 1))),
                ], preamble: index == 1 ? "a preamble\r\n" : "")
            sent += Int64(body.count)
            let response = try Self.post(proxy, "/upload", body)
            #expect(response?.status == 200)
        }
        let uploads = fixture.recorder.records.filter { $0.target == "/upload" }
        #expect(uploads.count == 3)
        #expect(uploads.allSatisfy { $0.error == nil })
        #expect(uploads.map { $0.parts.map(\.name) }.sorted { $0.count > $1.count }
            == [["title", "caption"], ["title"], ["title"]])
        let forwarded = uploads.reduce(Int64(0)) { $0 + $1.bodyBytes }

        // The client connections close right after their answers; wait until the proxy closed its side too.
        let metrics = try #require(
            try admin.metrics { $0.value("partgate_open_client_connections") == 0 })
        #expect(metrics.malformed.isEmpty, "\(metrics.malformed)")
        func count(_ name: String, _ labels: [String: String]) -> Double? { metrics.value(name, labels) }

        // Requests by route and status, and their durations.
        #expect(metrics.samples("partgate_requests_total", including: [:]).count == 4)
        #expect(count("partgate_requests_total", ["route": "uploads", "status": "200"]) == 3)
        #expect(count("partgate_requests_total", ["route": "images", "status": "415"]) == 1)
        #expect(count("partgate_requests_total", ["route": "strict", "status": "400"]) == 1)
        #expect(count("partgate_requests_total", ["route": "dead", "status": "502"]) == 1)
        for (route, answered) in [("uploads", 3.0), ("images", 1), ("strict", 1), ("dead", 1), ("-", 0)] {
            #expect(count("partgate_request_duration_seconds_count", ["route": route]) == answered, "\(route)")
            #expect(count("partgate_request_duration_seconds_bucket", ["route": route, "le": "+Inf"]) == answered)
            // The configured buckets, in seconds: 1 ms to 60 s.
            #expect(count("partgate_request_duration_seconds_bucket", ["route": route, "le": "0.001"]) != nil)
            #expect(count("partgate_request_duration_seconds_bucket", ["route": route, "le": "60"]) == answered)
            let sum = count("partgate_request_duration_seconds_sum", ["route": route]) ?? -1
            #expect(sum >= 0 && sum < 60 * answered + 1, "\(route) \(sum)")
        }

        // Parts by decision and rule.
        #expect(metrics.samples("partgate_parts_total", including: [:]).count == 4)
        let partLabels = { (route: String, decision: String, rule: String) in
            ["route": route, "decision": decision, "rule": rule, "report_only": "false"]
        }
        #expect(count("partgate_parts_total", partLabels("uploads", "pass", "default")) == 4)
        #expect(count("partgate_parts_total", partLabels("uploads", "strip", "drop-internal")) == 3)
        #expect(count("partgate_parts_total", partLabels("images", "reject", "no-executables")) == 1)
        // The part the parser refused (the body ends without its close delimiter) counts as refused by the flag.
        #expect(count("partgate_parts_total", partLabels("strict", "reject", "missing_final_boundary")) == 1)

        // Body bytes: every byte of the three uploads in, exactly what the upstream decoded out.
        #expect(count("partgate_body_bytes_in_total", ["route": "uploads"]) == Double(sent))
        #expect(count("partgate_body_bytes_out_total", ["route": "uploads"]) == Double(forwarded))
        #expect(forwarded > 0 && forwarded < sent)
        #expect(count("partgate_body_bytes_in_total", ["route": "strict"]) == Double(malformed.count))
        #expect(count("partgate_body_bytes_in_total", ["route": "dead"]) == 0)
        #expect(count("partgate_body_bytes_out_total", ["route": "dead"]) == 0)

        // Strict flags: one preamble normalised, one missing final boundary refused, nothing else.
        #expect(count("partgate_strict_flag_hits_total", ["flag": "preamble", "action": "normalize"]) == 1)
        #expect(count("partgate_strict_flag_hits_total", ["flag": "missing_final_boundary", "action": "reject"]) == 1)
        let hits = metrics.samples("partgate_strict_flag_hits_total", including: [:]).reduce(0) { $0 + $1.value }
        #expect(hits == 2)

        // Upstreams: one refused connection; three response heads from the echo upstream; one idle connection.
        #expect(count("partgate_upstream_connect_failures_total", ["upstream": "dead"]) == 1)
        #expect(count("partgate_upstream_connect_failures_total", ["upstream": "echo"]) == 0)
        #expect(count("partgate_upstream_tls_failures_total", ["upstream": "echo"]) == 0)
        #expect(count("partgate_upstream_latency_seconds_count", ["upstream": "echo"]) == 3)
        #expect(count("partgate_upstream_latency_seconds_bucket", ["upstream": "echo", "le": "0.001"]) != nil)
        #expect(count("partgate_upstream_latency_seconds_bucket", ["upstream": "echo", "le": "60"]) == 3)
        #expect(count("partgate_upstream_latency_seconds_count", ["upstream": "dead"]) == 0)
        #expect(count("partgate_upstream_idle_connections", ["upstream": "echo"]) == 1)
        #expect(uploads.map(\.connectionRequest) == [1, 2, 3])

        #expect(metrics.types["partgate_requests_total"] == "counter")
        #expect(metrics.types["partgate_request_duration_seconds"] == "histogram")
        #expect(metrics.types["partgate_open_client_connections"] == "gauge")
        #expect(metrics.samples.allSatisfy { $0.name.hasPrefix("partgate_") })
        // Every family has its help text, and a real Prometheus client's parser reads the whole exposition.
        #expect(Set(metrics.types.keys) == Set(metrics.helps.keys))
        #expect(metrics.helps["partgate_requests_total"]?.hasPrefix("Requests answered") == true)
        let parsed = try Self.pythonFamilies(metrics.text)
        #expect(parsed["partgate_requests"] == "counter", "\(parsed)")
        #expect(parsed["partgate_request_duration_seconds"] == "histogram")
        #expect(parsed.count == metrics.types.count)

        // An open client connection shows in the gauge, and leaves it when it closes.
        var open: TestHTTPClient? = try TestHTTPClient(port: proxy)
        #expect(try admin.metrics { $0.value("partgate_open_client_connections") == 1 } != nil)
        open?.send("GET /dead HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(open?.readResponse()?.status == 502)
        open = nil
        let after = try admin.metrics { $0.value("partgate_open_client_connections") == 0 }
        #expect(after?.value("partgate_open_client_connections") == 0)
        #expect(after?.value("partgate_requests_total", ["route": "dead", "status": "502"]) == 2)
        #expect(after?.value("partgate_upstream_connect_failures_total", ["upstream": "dead"]) == 2)
        serve.expectCleanStop()
    }

    @Test func healthAndReadinessAnswerAndOtherRequestsAreRefused() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(Self.config(fixture, deadPort: 9), listeners: 2)
        defer { serve.kill() }
        let admin = AdminClient(port: ports[1])
        let health = try #require(try admin.request("/healthz"))
        #expect(health.status == 200)
        #expect(health.json?["status"] as? String == "ok")
        let ready = try #require(try admin.request("/readyz"))
        #expect(ready.status == 200)
        #expect(ready.header("content-type") == "application/json")
        #expect(ready.json?["ready"] as? Bool == true)
        let head = try #require(try admin.request("/metrics", method: "HEAD"))
        #expect(head.status == 200)
        #expect(head.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(Int(head.header("content-length") ?? "") ?? 0 > 0)
        #expect(try admin.request("/metrics?x=1")?.status == 200)
        let missing = try #require(try admin.request("/metricsz"))
        #expect(missing.status == 404)
        #expect(missing.header("content-type") == "application/problem+json")
        let post = try #require(try admin.request("/metrics", method: "POST"))
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
        #expect(post.json?["flag"] as? String == "method_not_allowed")
        let malformed = try TestHTTPClient(port: ports[1])
        malformed.send("GET /healthz HTTP/1.1\nHost: x\n\n")
        #expect(malformed.readResponse()?.status == 400)
        serve.expectCleanStop()
    }

    @Test func readinessIs503WhenAnUpstreamHostDoesNotResolveAtStart() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let yaml = """
            version: 1
            workers: 1
            listeners:
              - address: 127.0.0.1:0
            admin: { address: 127.0.0.1:0 }
            upstreams:
              gone: { url: "http://partgate-test.invalid:8080" }
            limits:
              drain_timeout: 10s
            routes:
              - name: gone
                upstream: gone

            """
        let (serve, ports) = try fixture.serve(yaml, listeners: 2)
        defer { serve.kill() }
        let logged = serve.waitForLog("upstream does not resolve")
        #expect(logged?["upstream"] as? String == "gone")
        let admin = AdminClient(port: ports[1])
        #expect(try admin.request("/healthz")?.status == 200)
        let ready = try #require(try admin.request("/readyz"))
        #expect(ready.status == 503)
        #expect(ready.json?["ready"] as? Bool == false)
        let reason = try #require(ready.json?["reason"] as? String)
        #expect(reason.contains("gone") && reason.contains("partgate-test.invalid"), "\(reason)")
        // The proxy serves; the route whose upstream did not resolve answers 502.
        let client = try TestHTTPClient(port: ports[0])
        client.send("GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 502)
        #expect(response.json?["flag"] as? String == "no_upstream")
        let metrics = try #require(try admin.metrics())
        #expect(metrics.value("partgate_requests_total", ["route": "gone", "status": "502"]) == 1)
        serve.expectCleanStop()
    }

    @Test func aTLSFailureCountsAsATLSFailureNotAConnectFailure() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let yaml =
            ServeFixture.config(upstream: fixture.echoUpstream(ca: "tls/other-ca.pem"))
            + "admin: { address: 127.0.0.1:0 }\n"
        let (serve, ports) = try fixture.serve(yaml, listeners: 2)
        defer { serve.kill() }
        let client = try TestHTTPClient(port: ports[0])
        client.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(client.readResponse()?.status == 502)
        let metrics = try #require(try AdminClient(port: ports[1]).metrics())
        #expect(metrics.value("partgate_upstream_tls_failures_total", ["upstream": "echo"]) == 1)
        #expect(metrics.value("partgate_upstream_connect_failures_total", ["upstream": "echo"]) == 0)
        #expect(metrics.value("partgate_requests_total", ["route": "all", "status": "502"]) == 1)
        serve.expectCleanStop()
    }

    /// The metric families `prometheus_client`'s text parser reads from `text` (name to type; the parser drops
    /// a counter's `_total`). Throws when it refuses the text.
    static func pythonFamilies(_ text: String) throws -> [String: String] {
        let script = """
            import sys
            from prometheus_client.parser import text_string_to_metric_families
            for family in text_string_to_metric_families(sys.stdin.read()):
                print(family.name, family.type)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct ParserRefused: Error { let status: Int32 }
        guard process.terminationStatus == 0 else { throw ParserRefused(status: process.terminationStatus) }
        var families: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2 { families[String(words[0])] = String(words[1]) }
        }
        return families
    }
}
