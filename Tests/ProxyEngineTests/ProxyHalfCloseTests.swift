import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
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

    /// Pipelined requests followed by the end of stream: answered in order, possibly only the first (today the
    /// connection closes after it, and the client must retry the others, RFC 9112 §9.3.2); the upstream
    /// gets exactly the requests answered.
    @Test func pipelinedRequestsThenEndOfStreamAreAnsweredInOrder() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        client.shutdownWrite()
        var targets: [String] = []
        while let response = client.readResponse() { targets.append(response.json?["target"] as? String ?? "?") }
        #expect(targets == ["/1"] || targets == ["/1", "/2"])
        #expect(client.peerClosed)
        #expect(harness.recorder.records.map(\.target) == targets)
    }

    /// Once the answer is flushed, the client's end of stream closes the connection at once: a draining
    /// worker does not wait for the 2 s linger limit.
    @Test func endOfStreamAfterAFlushedRefusalClosesAtOnce() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 10)
        client.send("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n")
        #expect(client.readResponse()?.status == 400)
        #expect(client.isClosedByPeer())  // flushed and the write side shut
        client.shutdownWrite()
        let started = Date()
        harness.proxy.drain()
        harness.proxy.wait()
        #expect(Date().timeIntervalSince(started) < 1.5)
    }
}
