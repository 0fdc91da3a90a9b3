import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// A response's transfer codings other than `chunked` reach the client announced, or not at all.
@Suite("Response transfer codings", .serialized)
struct ProxyResponseCodingTests {
    /// Failed before: `gzip, chunked` went to the client as `chunked` alone, and `gzip` (read until close) with
    /// no Transfer-Encoding at all: either way the client read gzip bytes as the body.
    @Test func codingsBeforeChunkedAreAnnouncedAgain() throws {
        let upstream = try RawServer { fd in
            let head = RawServer.readHead(fd)
            if String(decoding: head, as: UTF8.self).contains("/close") {
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\ncoded")
                return  // the body ends with the connection
            }
            let coding = String(decoding: head, as: UTF8.self).contains("/parameters") ? #"x-pack;p="a,b""# : "gzip"
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(coding), chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            _ = RawServer.drain(fd)
        }
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let chunked = try TestHTTPClient(port: port, timeout: 10)
        chunked.send("GET /chunked HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let first = try #require(chunked.readResponse())
        #expect(first.status == 200)
        #expect(first.header("transfer-encoding") == "gzip, chunked")
        #expect(first.text == "5\r\nhello\r\n0\r\n\r\n")  // still chunked on the wire (the client helper reads to close)

        let untilClose = try TestHTTPClient(port: port, timeout: 10)
        untilClose.send("GET /close HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let second = try #require(untilClose.readResponse())
        // A body that ends with the upstream's close goes chunked to an HTTP/1.1 client (its end marked).
        #expect(second.header("transfer-encoding") == "gzip, chunked")
        #expect(second.header("connection") == "close")
        #expect(second.text == "5\r\ncoded\r\n0\r\n\r\n")

        // A coding's parameters go with it, a quoted comma in them included (refused as two elements before).
        let parameters = try TestHTTPClient(port: port, timeout: 10)
        parameters.send("GET /parameters HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let third = try #require(parameters.readResponse())
        #expect(third.status == 200)
        #expect(third.header("transfer-encoding") == #"x-pack;p="a,b", chunked"#)
        #expect(third.text == "5\r\nhello\r\n0\r\n\r\n")

        // HTTP/1.0 knows no transfer coding: rather no answer than coded bytes taken for the body.
        let old = try TestHTTPClient(port: port, timeout: 10)
        old.send("GET /chunked HTTP/1.0\r\nHost: a\r\n\r\n")
        #expect(old.readResponse()?.status == 502)
    }
}
