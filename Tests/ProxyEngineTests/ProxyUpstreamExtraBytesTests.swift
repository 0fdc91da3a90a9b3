import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// An upstream connection is reused only when nothing but the response came back on it.
@Suite("Upstream bytes after a response", .serialized)
struct ProxyUpstreamExtraBytesTests {
    /// Failed before: the connection went back to the pool with the extra bytes unread, and the next
    /// request, on another client connection, got them as its response (a response queue poisoned by one
    /// upstream answer).
    @Test func bytesAfterAResponseAreNeverReadAsTheNextResponse() throws {
        let upstream = try RawServer { fd in
            _ = RawServer.readHead(fd)
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                           + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra")
            _ = RawServer.drain(fd)
        }
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let first = try TestHTTPClient(port: port, timeout: 10)
        first.send("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(first.readResponse()?.text == "ok")
        let second = try TestHTTPClient(port: port, timeout: 10)
        second.send("GET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        // A new upstream connection, whose first answer is "ok" again.
        #expect(second.readResponse()?.text == "ok")
    }

    /// Failed before: a HEAD response with a body the upstream should not have sent, in a TLS record of its own
    /// that came in the same segment. The proxy read both records ahead, answered the HEAD from the first, and
    /// pooled the connection with the second still in the SSL's buffer. The pipelined GET took the connection
    /// back in the same turn and was answered with the stray record ("EVIL!").
    @Test func recordsReadAheadAfterAResponseAreNeverTheNextResponse() throws {
        let upstream = try FaultUpstream(tls: true) { peer in
            guard let head = peer.readHead() else { return }
            if head.hasPrefix("HEAD ") {
                peer.corked {
                    peer.send("HTTP/1.1 200 OK\r\nContent-Length: 38\r\n\r\n")
                    peer.send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nEVIL!")
                }
                guard peer.readHead() != nil else { return }
                peer.send("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nsame-conn")
            } else {
                peer.send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfresh")
            }
            peer.drain()
        }
        defer { upstream.stop() }
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: [
                "up": UpstreamSettings(
                    name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost",
                    tls: try TLSFixture.shared.clientContext())
            ],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("HEAD /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try #require(client.readResponse(method: "HEAD"))
        #expect(head.status == 200)
        let second = try #require(client.readResponse())
        #expect(second.text == "fresh")
    }
}
