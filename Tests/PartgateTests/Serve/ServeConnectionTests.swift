import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Connection handling of the real binary: keep-alive on both sides, TLS session resumption towards the
/// upstream, pipelining, and a client that aborts mid-body.
@Suite("serve: connections through the binary", .serialized)
struct ServeConnectionTests {
    static func multipartRequest(_ path: String, value: String) -> String {
        let body = "--b\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\n\(value)\r\n--b--\r\n"
        return "POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    @Test func keepAliveReusesTheClientAndTheUpstreamConnection() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream()))
        defer { serve.kill() }
        let url = "http://127.0.0.1:\(ports[0])/"
        // One curl, three URLs: the options apply to each transfer, and curl keeps its connection.
        let curl = try Curl.run(["-F", "title=hello", "-w", "{\"connects\":%{num_connects}}\\n", url + "1", url + "2", url + "3"])
        #expect(curl.status == 0, "\(curl.stderr)")
        let objects = curl.jsonObjects
        #expect(objects.compactMap { $0["connects"] as? Int } == [1, 0, 0], "client side: one connection")
        #expect(objects.compactMap { $0["target"] as? String } == ["/1", "/2", "/3"])
        let records = fixture.recorder.records
        #expect(records.map(\.connectionRequest) == [1, 2, 3], "upstream side: one connection")
        #expect(records.map(\.tlsSessionReused) == [false, false, false], "one TLS handshake, a full one")
        serve.expectCleanStop()
    }

    @Test func newUpstreamConnectionsResumeTheTLSSession() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let upstream = fixture.echoUpstream(extra: ["max_idle_connections: 0"])
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: upstream))
        defer { serve.kill() }
        let url = "http://127.0.0.1:\(ports[0])/"
        let curl = try Curl.run(["-F", "title=hello", url + "1", url + "2", url + "3"])
        #expect(curl.status == 0, "\(curl.stderr)")
        let records = fixture.recorder.records
        #expect(records.map(\.connectionRequest) == [1, 1, 1], "no idle upstream connection is kept")
        #expect(records.map(\.tlsSessionReused) == [false, true, true], "later handshakes resume the first session")
        serve.expectCleanStop()
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream()))
        defer { serve.kill() }
        let client = try TestHTTPClient(port: ports[0], timeout: 10)
        client.send(Self.multipartRequest("/first", value: "one") + "GET /second HTTP/1.1\r\nHost: a\r\n\r\n"
                    + Self.multipartRequest("/third", value: "three"))
        let responses = (0..<3).compactMap { _ in client.readResponse() }
        #expect(responses.map(\.status) == [200, 200, 200])
        #expect(responses.compactMap { $0.json?["target"] as? String } == ["/first", "/second", "/third"])
        #expect(responses.map { $0.header("connection") } == [nil, nil, nil])
        #expect(fixture.recorder.records.map(\.target) == ["/first", "/second", "/third"])
        #expect(fixture.recorder.records.map(\.connectionRequest) == [1, 2, 3])
        serve.expectCleanStop()
    }

    @Test func clientAbortMidBodyNeverCompletesTheUpstreamRequest() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1))
        defer { serve.kill() }
        let data = String(repeating: "x", count: 400_000)
        let request = Self.multipartRequest("/aborted", value: data)
        do {
            let client = try TestHTTPClient(port: ports[0], timeout: 10)
            client.send(String(request.prefix(200_000)))
        }  // closed here, half-way through the body
        // partgate keeps serving; the next request gets a new upstream connection (the aborted one was
        // closed, not pooled), and the aborted request never reached the upstream complete.
        let client = try TestHTTPClient(port: ports[0], timeout: 10)
        client.send(Self.multipartRequest("/after", value: "ok"))
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.json?["target"] as? String == "/after")
        let records = fixture.recorder.records
        #expect(records.map(\.target) == ["/after"])
        #expect(records.first?.connectionRequest == 1)
        serve.expectCleanStop()
    }
}
