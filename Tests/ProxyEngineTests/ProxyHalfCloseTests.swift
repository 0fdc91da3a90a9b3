import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// A client that ends its request stream (shutdown(SHUT_WR)) right after sending still gets its answer.
@Suite("Client half-close", .serialized)
struct ProxyHalfCloseTests {
    /// Failed before: the end of stream arrived while the response was still on its way, the connection was
    /// marked to close after it, and the end of stream read again while the answer was being flushed aborted
    /// the connection, dropping the response the upstream had already produced.
    @Test func aRequestThenEndOfStreamIsAnswered() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("GET /once HTTP/1.1\r\nHost: a\r\n\r\n")
        client.shutdownWrite()
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.header("connection") == "close")
        #expect(response.json?["target"] as? String == "/once")
        #expect(client.isClosedByPeer())
    }

    @Test func aRefusalThenEndOfStreamIsAnswered() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n")
        client.shutdownWrite()
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.json?["flag"] as? String == "obs_fold")
        #expect(client.isClosedByPeer())
        #expect(harness.recorder.records.isEmpty)
    }

    /// Pipelined requests followed by the end of stream: the first is answered, then the connection closes;
    /// the client must retry the others (RFC 9112 §9.3.2). Recorded as the behaviour, not a goal.
    @Test func pipelinedRequestsThenEndOfStreamGetTheFirstAnswer() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        client.shutdownWrite()
        var targets: [String] = []
        while let response = client.readResponse() { targets.append(response.json?["target"] as? String ?? "?") }
        #expect(targets == ["/1"])
        #expect(client.peerClosed)
        #expect(harness.recorder.records.map(\.target) == ["/1"])
    }
}
