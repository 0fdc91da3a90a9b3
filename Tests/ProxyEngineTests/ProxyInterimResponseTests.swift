import CEventTLS
import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Interim (1xx) responses from the upstream reach HTTP/1.1 clients (RFC 9110 §15.2: a proxy forwards them),
/// without their hop-by-hop fields; `100 Continue` stays partgate's own answer to `Expect`.
@Suite("Interim responses", .serialized)
struct ProxyInterimResponseTests {
    /// What the test upstream sends before each final response.
    static let interims =
        "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nConnection: x-hop\r\nX-Hop: 1\r\n"
        + "Keep-Alive: timeout=5\r\n\r\n"
        + "HTTP/1.1 100 Continue\r\n\r\n"
        + "HTTP/1.1 102 Processing\r\n\r\n"

    /// An upstream that answers each request with ``interims``, `count` more 103s, then `200` and "ok"; a
    /// request with a Content-Length gets the interims before its body is read.
    static func upstream(extra103s count: Int = 0) throws -> RawServer {
        try RawServer { fd in
            while true {
                let head = String(decoding: RawServer.readHead(fd), as: UTF8.self)
                if head.isEmpty { return }
                RawServer.send(fd, interims + String(repeating: "HTTP/1.1 103 Early Hints\r\nLink: <b>\r\n\r\n", count: count))
                let length = head.components(separatedBy: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard readExactly(fd, length) else { return }
                RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
        }
    }

    static func readExactly(_ fd: Int32, _ count: Int) -> Bool {
        var left = count
        var buffer = [UInt8](repeating: 0, count: 4096)
        while left > 0 {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(left, $0.count), 0) }
            if got <= 0 { return false }
            left -= got
        }
        return true
    }

    @Test func earlyHintsAndProcessingReachAnHTTP11ClientWithoutHopByHopFields() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let client = try TestHTTPClient(port: port, timeout: 10)
        for _ in 0..<2 {  // the connection serves a second exchange: the interims ended nothing
            client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            let hints = try #require(client.readInterimHead())
            #expect(hints.status == 103)
            #expect(hints.fields.map(\.name) == ["link"])
            #expect(hints.fields.first?.value == "</a.css>; rel=preload")
            #expect(client.readInterimHead()?.status == 102)  // the upstream's 100 is not relayed
            #expect(client.readInterimHead() == nil)
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.body == Array("ok".utf8))
            #expect(response.header("connection") == nil)
        }
    }

    /// A 103 that comes while the client still sends its body is not an early answer: the body goes on, the
    /// final response follows, and the connection stays open.
    @Test func interimDuringTheBodyIsNotAnEarlyAnswer() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(client.readInterimHead()?.status == 100)  // partgate's own answer to Expect
        #expect(client.readInterimHead()?.status == 103)
        #expect(client.readInterimHead()?.status == 102)
        client.send("hello")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.header("connection") == nil)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }

    /// An HTTP/1.0 client knows no 1xx: it gets the final response only.
    @Test func http10ClientGetsNoInterim() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET / HTTP/1.0\r\nHost: a\r\n\r\n")
        #expect(client.readInterimHead() == nil)
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    /// An upstream that sends many interims gets the first few relayed; the rest are dropped, so they cannot
    /// pile up in the client's output.
    @Test func interimsPastTheCapAreDropped() throws {
        let upstream = try Self.upstream(extra103s: 20)
        defer { upstream.stop() }
        let (proxy, port) = try ProxyServer.started(toPlainUpstream: upstream.port)
        defer { proxy.stop(); proxy.wait() }

        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        var relayed = 0
        while client.readInterimHead() != nil { relayed += 1 }
        #expect(relayed == 8)
        #expect(client.readResponse()?.status == 200)
    }
}
