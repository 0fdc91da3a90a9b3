import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Which route a request target reaches, and the target the upstream gets.
@Suite("Proxy routing", .serialized)
struct ProxyRoutingTests {
    /// Failed before the engine routed on `/` for an empty absolute-form path: 404 `no_route` on a catch-all
    /// route (llhttp's `request/uri/03`, `04` and `06` cases).
    @Test(arguments: [
        ("GET http://example.test?hail=all HTTP/1.1", "/?hail=all"),
        ("GET http://example.test:1234 HTTP/1.1", "/"),
        ("GET http://example.test/a?b HTTP/1.1", "/a?b"),
    ])
    func absoluteFormTargetsRouteOnTheirOriginForm(requestLine: String, forwarded: String) throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("\(requestLine)\r\nHost: example.test\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(harness.recorder.records.map(\.target) == [forwarded])
    }

    @Test func aHEADResponseFromTheUpstreamHasNoBody() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("HEAD /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try #require(client.readResponse(method: "HEAD"))
        #expect(head.status == 200 && Int(head.header("content-length") ?? "") ?? 0 > 0)
        let get = try #require(client.readResponse())
        #expect(get.json?["target"] as? String == "/b")
        // The same upstream connection carried both: nothing was left unread after the HEAD response.
        #expect(harness.recorder.records.map(\.connectionRequest) == [1, 2])
    }
}
