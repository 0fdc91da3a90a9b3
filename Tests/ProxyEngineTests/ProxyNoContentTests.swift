import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Responses without a body keep the fields that describe one only where HTTP allows them.
@Suite("Responses without a body", .serialized)
struct ProxyNoContentTests {
    /// A 204 with `Content-Length: 0` (as some frameworks send it) goes out without it (RFC 9110 §8.6); a 304
    /// keeps its Content-Length, which describes the representation the client has. Both are bodiless, so the
    /// keep-alive connection serves the next request.
    @Test func noContentDropsContentLengthNotModifiedKeepsIt() throws {
        let upstream = try RawServer { fd in
            while true {
                let head = String(decoding: RawServer.readHead(fd), as: UTF8.self)
                if head.isEmpty { return }
                if head.hasPrefix("GET /204") {
                    RawServer.send(fd, "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nX-A: 1\r\n\r\n")
                } else {
                    RawServer.send(fd, "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\nETag: \"e\"\r\n\r\n")
                }
            }
        }
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /204 HTTP/1.1\r\nHost: a\r\n\r\n")
        let noContent = try #require(client.readResponse())
        #expect(noContent.status == 204)
        #expect(noContent.header("content-length") == nil)
        #expect(noContent.header("x-a") == "1")
        client.send("GET /304 HTTP/1.1\r\nHost: a\r\n\r\n")
        let notModified = try #require(client.readResponse(method: "HEAD"))  // bodiless: read the head only
        #expect(notModified.status == 304)
        #expect(notModified.header("content-length") == "1234")
        #expect(notModified.header("etag") == "\"e\"")
    }
}
