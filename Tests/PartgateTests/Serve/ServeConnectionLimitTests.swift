import Foundation
import LoopbackTestSupport
import Testing

/// `max_connections`: at the limit a worker stops accepting, as nginx does at `worker_connections`; a new
/// connection waits in the listen queue, unanswered, and is served as soon as an open one closes.
@Suite("partgate serve at max_connections", .serialized)
struct ServeConnectionLimitTests {
    @Test func aConnectionBeyondTheLimitWaitsUntilOneCloses() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(
            "max_connections: 3\n" + ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1))
        defer { serve.kill() }
        let port = try #require(ports.first)

        var held: [TestHTTPClient] = []
        for _ in 0..<3 {
            let client = try TestHTTPClient(port: port, timeout: 5)
            client.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(client.readResponse()?.status == 200)  // accepted, and kept alive
            held.append(client)
        }
        let waiting = try TestHTTPClient(port: port, timeout: 1)  // the kernel completes the handshake
        waiting.send("GET /waiting HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(waiting.readResponse() == nil, "answered beyond max_connections")
        let line = serve.waitForLogLine { ($0["msg"] as? String)?.contains("connection limit reached") == true }
        #expect(line != nil)

        held.removeFirst()  // closes: the proxy sees it and accepts the waiting connection
        #expect(waiting.readResponse()?.status == 200)
        // Still at the limit (two held and the one just served): the next one waits in turn.
        let next = try TestHTTPClient(port: port, timeout: 1)
        next.send("GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(next.readResponse() == nil)
        held.removeAll()
        #expect(next.readResponse()?.status == 200)
        serve.expectCleanStop()
    }
}

/// `auto` keeps the limit under the descriptor limit: at 128 descriptors, (128 − 64) / 3 = 21 connections, so
/// 40 clients never make `accept` fail with EMFILE; the 22nd waits instead.
@Suite("partgate serve: max_connections auto", .serialized)
struct ServeConnectionLimitAutoTests {
    @Test func theAutomaticLimitStaysUnderTheDescriptorLimit() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let config = try fixture.write(
            Array(ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1).utf8), to: "partgate.yaml")
        let serve = try ServeProcess(arguments: ["serve", "--config", config], fileLimit: 128)
        defer { serve.kill() }
        let port = try #require(serve.listeningPorts(count: 1).first)
        var held: [TestHTTPClient] = []
        for _ in 0..<40 { held.append(try TestHTTPClient(port: port, timeout: 5)) }
        let line = serve.waitForLogLine { ($0["msg"] as? String)?.contains("connection limit reached") == true }
        #expect((line?["msg"] as? String)?.contains("21 client connections") == true, "\(String(describing: line))")
        #expect(!serve.logLines.contains { ($0["msg"] as? String)?.contains("accepting pauses") == true })
        held.removeAll()
        let curl = try Curl.run(["-s", "-F", "title=hello", "http://127.0.0.1:\(port)/upload"])
        #expect(curl.status == 0 && curl.stdout.contains("\"title\""), "\(curl.stdout) \(curl.stderr)")
        serve.expectCleanStop()
    }
}
