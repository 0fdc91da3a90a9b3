import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// A pooled upstream connection the upstream closed as the next request arrived: an idempotent request without
/// a body goes again on a new connection (nginx and HAProxy do the same); anything else is 502.
@Suite("Proxy upstream retry", .serialized)
struct ProxyUpstreamRetryTests {
    /// Answers the first request of each connection (keep-alive), then closes on the second without answering.
    static func upstream(requests: Counter) throws -> RawServer {
        try RawServer { fd in
            let head = RawServer.readHead(fd)
            guard !head.isEmpty else { return }
            requests.add()
            // A HEAD is answered without the body (bytes after its response would keep the connection from the pool).
            let isHEAD = head.starts(with: Array("HEAD ".utf8))
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + (isHEAD ? "" : "first"))
            // The next request on this connection is closed unanswered (a close by the proxy is not one).
            if !RawServer.readHead(fd).isEmpty { requests.add() }
        }
    }

    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }

    /// Runs `body` with a client whose first request went through (the upstream connection is pooled now), and
    /// the count of requests the upstream read.
    static func afterOneExchange(_ body: (TestHTTPClient, Counter) throws -> Void) throws {
        let requests = Counter()
        let upstream = try Self.upstream(requests: requests)
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /one HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.text == "first")
        try body(client, requests)
    }

    @Test(arguments: ["GET", "HEAD", "DELETE"])
    func anIdempotentRequestGoesAgainOnANewConnection(method: String) throws {
        try Self.afterOneExchange { client, requests in
            client.send("\(method) /two HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse(method: method)?.status == 200)
            #expect(requests.value == 3, "the first, the one the closing connection swallowed, and the retry")
        }
    }

    @Test func aPOSTIsNotSentTwice() throws {
        try Self.afterOneExchange { client, requests in
            client.send("POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi")
            #expect(client.readResponse()?.status == 502)
            #expect(requests.value == 2)
        }
    }
}
