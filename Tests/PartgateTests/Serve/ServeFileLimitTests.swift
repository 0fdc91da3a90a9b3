import Foundation
import LoopbackTestSupport
import Testing

/// At the descriptor limit `accept` fails with EMFILE while the listening socket stays readable: partgate pauses
/// accepting and says so once, instead of retrying at once forever (libevent's default, with a warning per try).
/// (With `max_connections: auto` the limit derives from the descriptor limit and stays under it.)
@Suite("partgate serve at the descriptor limit", .serialized)
struct ServeFileLimitTests {
    @Test func acceptingPausesAtTheLimitAndResumesWhenDescriptorsAreFree() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        // max_connections set past what 64 descriptors hold (`auto` would stay under them): accept meets EMFILE.
        let config = try fixture.write(
            Array(("max_connections: 1000\n" + ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1)).utf8),
            to: "partgate.yaml")
        let serve = try ServeProcess(arguments: ["serve", "--config", config], fileLimit: 64)
        defer { serve.kill() }
        let port = try #require(serve.listeningPorts(count: 1).first)

        var held: [TestHTTPClient] = []
        for _ in 0..<80 { held.append(try TestHTTPClient(port: port, timeout: 5)) }
        let paused = serve.waitForLogLine { ($0["msg"] as? String)?.contains("accepting pauses") == true }
        #expect((paused?["msg"] as? String)?.contains("Too many open files") == true)
        Thread.sleep(forTimeInterval: 1.5)
        let reports = serve.logLines.filter { ($0["msg"] as? String)?.contains("accepting pauses") == true }
        #expect((1...3).contains(reports.count), "at most one line a second: \(reports.count)")

        held.removeAll()  // the proxy sees them close and frees their descriptors
        let curl = try Curl.run(["-s", "-F", "title=hello", "http://127.0.0.1:\(port)/upload"])
        #expect(curl.status == 0 && curl.stdout.contains("\"title\""), "\(curl.stdout) \(curl.stderr)")
        serve.expectCleanStop()
        #expect(!serve.standardError.contains("Error from accept()"), "libevent's warning per failed accept")
    }
}
