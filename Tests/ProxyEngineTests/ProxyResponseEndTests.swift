import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// How a response body's end reaches the client: a body that ends with the upstream's close goes chunked to an
/// HTTP/1.1 client, with its last chunk only when the upstream closed in order; a body cut short (a reset, a
/// bad chunk) reaches the client as it was, without an end, and the connection closes.
@Suite("Proxy response ends", .serialized)
struct ProxyResponseEndTests {
    static func upstream() throws -> RawServer {
        try RawServer { fd in
            let head = String(decoding: RawServer.readHead(fd), as: UTF8.self)
            if head.contains("/eof") {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello, ")
                RawServer.send(fd, "world")
            } else if head.contains("/reset") {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\n\r\npartial")
                Thread.sleep(forTimeInterval: 0.1)
                var linger = linger(l_onoff: 1, l_linger: 0)  // close with a reset
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            } else if head.contains("/octal") {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 010\r\nConnection: close\r\n\r\n0123456789")
                _ = RawServer.drain(fd)
            } else if head.contains("/bad-chunk") {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n")
                _ = RawServer.drain(fd)
            } else {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                _ = RawServer.drain(fd)
            }
        }
    }

    @Test func aBodyEndingWithTheUpstreamsCloseIsChunkedAndTheClientConnectionStays() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /eof HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.header("transfer-encoding") == "chunked" && response.header("connection") == nil)
        #expect(response.text == "hello, world")
        // RFC 9110 §6.6.1: the upstream sent no Date, so the proxy adds one.
        #expect(response.header("date")?.hasSuffix(" GMT") == true)
        client.send("GET /again HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.text == "ok", "the client's connection stays open")

        let old = try TestHTTPClient(port: port, timeout: 10)
        old.send("GET /eof HTTP/1.0\r\nHost: a\r\n\r\n")
        let toClose = try #require(old.readResponse())
        #expect(toClose.header("transfer-encoding") == nil && toClose.text == "hello, world")
    }

    @Test func aBodyCutShortByAResetHasNoEnd() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /reset HTTP/1.1\r\nHost: a\r\n\r\n")
        let bytes = String(decoding: client.readToClose(), as: UTF8.self)
        #expect(bytes.hasPrefix("HTTP/1.1 200 "))
        #expect(bytes.contains("Transfer-Encoding: chunked\r\n"))
        #expect(bytes.hasSuffix("\r\n\r\n7\r\npartial\r\n"), "no last chunk: \(bytes)")
    }

    @Test func aBadChunkFromTheUpstreamEndsTheResponseWithWhatWentBefore() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /bad-chunk HTTP/1.1\r\nHost: a\r\n\r\n")
        let bytes = String(decoding: client.readToClose(), as: UTF8.self)
        #expect(bytes.hasPrefix("HTTP/1.1 200 "), "the head already queued still goes out: \(bytes)")
        #expect(bytes.hasSuffix("\r\n\r\n5\r\nhello\r\n"), "no last chunk: \(bytes)")
    }

    /// A length written otherwise than in plain decimal is written again as partgate read it (as on the request
    /// side): `010` is ten here, and eight to a reader of octal.
    @Test func aContentLengthWithALeadingZeroIsWrittenInDecimal() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET /octal HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.headers.filter { $0.0.lowercased() == "content-length" }.map(\.1) == ["10"])
        #expect(response.text == "0123456789")
    }
}
