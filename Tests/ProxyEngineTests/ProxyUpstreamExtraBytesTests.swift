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
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!,
                                               serverName: "localhost", tls: nil)],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        defer { proxy.stop(); proxy.wait() }
        let first = try TestHTTPClient(port: port, timeout: 10)
        first.send("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(first.readResponse()?.text == "ok")
        let second = try TestHTTPClient(port: port, timeout: 10)
        second.send("GET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        // A new upstream connection, whose first answer is "ok" again.
        #expect(second.readResponse()?.text == "ok")
    }
}
