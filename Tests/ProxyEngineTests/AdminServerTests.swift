import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// The admin listener's connections: one head, one answer, a deadline from the accept.
@Suite("Admin server", .serialized)
struct AdminServerTests {
    static func started(timeout: Duration = AdminServer.timeout) throws -> (AdminServer, UInt16) {
        let server = AdminServer(
            handlers: AdminHandlers(metrics: { Array("up 1\n".utf8) }, readiness: { AdminReadiness(ready: true) }),
            timeout: timeout)
        let port = try server.start(address: SocketAddress("127.0.0.1:0")!).port
        return (server, port)
    }

    /// A head trickled a byte at a time does not keep its slot: the deadline runs from the accept (a timer that
    /// each read restarted let 64 such clients lock out every probe).
    @Test func aTrickledHeadIsClosedAtTheDeadline() throws {
        let (server, port) = try Self.started(timeout: .milliseconds(600))
        defer { server.stop() }
        let client = try TestHTTPClient(port: port, timeout: 3)
        client.send("GET /healthz HTTP/1.1\r\n")
        for _ in 0..<10 {
            Thread.sleep(forTimeInterval: 0.15)
            client.send("X")
        }
        #expect(client.isClosedByPeer(), "still open 1.5 s after the accept, with a 0.6 s deadline")
    }

    @Test func aHEADAnswerHasNoBodyAndEveryAnswerIsDated() throws {
        let (server, port) = try Self.started()
        defer { server.stop() }
        let missing = try TestHTTPClient(port: port)
        missing.send("HEAD /nope HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(missing.readResponse(method: "HEAD"))
        #expect(response.status == 404 && response.header("date")?.hasSuffix(" GMT") == true)
        #expect(Int(response.header("content-length") ?? "") ?? 0 > 0)
        #expect(missing.readToClose().isEmpty, "no body after a HEAD answer")
        let health = try TestHTTPClient(port: port)
        health.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(health.readResponse()?.header("date") != nil)
    }

    /// The answer to an oversized head is read whole: the write side shuts first and the rest of the input is
    /// read, not left for a reset.
    @Test func anOversizedHeadIsAnswered431() throws {
        let (server, port) = try Self.started()
        defer { server.stop() }
        let client = try TestHTTPClient(port: port)
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        #expect(client.readResponse()?.status == 431)
    }

    /// The admin listener reads a request as the proxy does: what the proxy refuses, it refuses.
    @Test(arguments: [
        "GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /healthz HTTP/1.1\r\n\r\n",
    ])
    func aHeadTheProxyRefusesIsRefused(request: String) throws {
        let (server, port) = try Self.started()
        defer { server.stop() }
        let client = try TestHTTPClient(port: port)
        client.send(request)
        #expect(client.readResponse()?.status == 400)
    }
}
