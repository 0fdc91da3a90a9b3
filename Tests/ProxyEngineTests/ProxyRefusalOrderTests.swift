import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Which refusal a client gets when a body breaks the policy and, further on, the multipart syntax: the first in
/// the body, however the reads split it. The real-world proof suite found one body answered `charset` (415) on one
/// route and `delimiter_garbage` (400) on another: the parser read a whole span before the engine looked at the
/// policy's earlier refusal.
@Suite("Proxy refusal order", .serialized)
struct ProxyRefusalOrderTests {
    /// Part 0 declares a charset the route does not allow; the delimiter before part 1 is followed by garbage.
    static let body = Array(
        ("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain; charset=utf-7\r\n\r\n"
            + "x\r\n--b0undary garbage\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\ny\r\n--b0undary--\r\n").utf8)

    @Test func policyRefusalEarlierInTheBodyWinsOverALaterSyntaxError() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        for _ in 0..<3 {
            let client = try TestHTTPClient(port: harness.port)
            client.send(ProxyHarness.request(Self.body, boundary: "b0undary"))
            let response = try #require(client.readResponse())
            #expect(response.status == 415)
            #expect(response.json?["flag"] as? String == "charset")
        }
        #expect(harness.recorder.records.isEmpty)
    }

    @Test func syntaxErrorEarlierInTheBodyStaysTheAnswer() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let body = Array(
            ("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b0undary garbage\r\n"
                + "Content-Disposition: form-data; name=\"b\"\r\nContent-Type: text/plain; charset=utf-7\r\n\r\ny\r\n"
                + "--b0undary--\r\n").utf8)
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(body, boundary: "b0undary"))
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.json?["flag"] as? String == "delimiter_garbage")
    }
}
