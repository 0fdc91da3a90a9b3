import Foundation
import HTTP1
import LoopbackTestSupport
import Multipart
import Policy
@testable import ProxyEngine
import Testing

/// Each rejection class: answered with problem+json and the connection closed; nothing reaches upstream.
@Suite("Proxy rejections", .serialized)
struct ProxyRejectionTests {
    static func problem(_ request: String, settings: (inout EngineSettings) -> Void = { _ in }) throws -> (TestHTTPClient.Response?, Int) {
        let harness = try ProxyHarness(settings: settings)
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send(request)
        let response = client.readResponse()
        #expect(client.isClosedByPeer())
        return (response, harness.recorder.records.count)
    }

    @Test(arguments: [
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "content_length_with_transfer_encoding"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400, "duplicate_content_length"),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3x\r\n\r\nabc", 400, "invalid_content_length"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported_transfer_coding"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400, "invalid_transfer_encoding"),
        ("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", 400, "obs_fold"),
        ("GET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n", 400, "bare_lf"),
        ("GET / HTTP/1.1\r\nHost: a\rX: y\r\n\r\n", 400, "bare_cr"),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, "whitespace_before_colon"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n", 400, "chunk_size_overflow"),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", 400, "bare_lf"),
        ("GET / HTTP/1.1\r\n\r\n", 400, "missing_host"),
        ("CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", 405, "connect_not_allowed"),
    ])
    func framingViolations(request: String, status: Int, name: String) throws {
        let (response, upstreamRequests) = try Self.problem(request)
        #expect(response?.status == status)
        #expect(response?.header("content-type") == "application/problem+json")
        #expect(response?.json?["flag"] as? String == name)
        #expect(upstreamRequests == 0)
    }

    @Test func headTooLargeIs431() throws {
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n"
        let (response, _) = try Self.problem(big) { $0.headLimits = HeadLimits(maxHeadBytes: 8192, maxFieldLineBytes: 8192) }
        #expect(response?.status == 431)
    }

    @Test func bodyLimitIs413() throws {
        let route = RouteConfiguration(name: "all", upstream: "echo", limits: RequestLimits(bodyBytes: 10))
        let harness = try ProxyHarness(route: route)
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world")
        #expect(client.readResponse()?.status == 413)
        let chunked = try TestHTTPClient(port: harness.port)
        chunked.send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n")
        let response = chunked.readResponse()
        #expect(response?.status == 413)
        #expect(response?.json?["flag"] as? String == "limit_body_bytes")
        #expect(harness.recorder.records.isEmpty)
    }

    @Test func multipartLimitIs413NamingTheLimit() throws {
        let route = RouteConfiguration(name: "all", upstream: "echo", limits: RequestLimits(parts: 1))
        let harness = try ProxyHarness(route: route)
        defer { harness.shutdown() }
        let body = ProxyHarness.multipart("b", [(name: "a", filename: nil, type: nil, data: [1]), (name: "b", filename: nil, type: nil, data: [2])])
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(body, boundary: "b"))
        let response = client.readResponse()
        #expect(response?.status == 413)
        #expect(response?.json?["flag"] as? String == "limit_parts")
        #expect(response?.json?["part"] as? Int == 1)
        // The upstream saw the request start but never a complete body.
        #expect(harness.recorder.records.isEmpty)
    }

    @Test func ambiguousContentTypeIs400() throws {
        let (response, count) = try Self.problem(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=a; boundary=b\r\nContent-Length: 0\r\n\r\n")
        #expect(response?.status == 400)
        #expect(response?.json?["flag"] as? String == "duplicate_parameter")
        #expect(count == 0)
    }

    @Test func headerTimeoutIs408() throws {
        let harness = try ProxyHarness { $0.headerTimeout = .milliseconds(300) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("POST / HTTP/1.1\r\nHost: a\r\n")
        let response = client.readResponse()
        #expect(response?.status == 408)
        #expect(response?.json?["flag"] as? String == "header_timeout")
    }

    @Test func idleConnectionsCloseSilently() throws {
        let harness = try ProxyHarness { $0.headerTimeout = .milliseconds(200) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        #expect(client.isClosedByPeer())
    }
}

@Suite("Header look-alikes", .serialized)
struct HeaderLookalikeTests {
    @Test(arguments: ["Content_-Type", "content_type", "ContentType", "Transfer_Encoding", "Content.Length"])
    func imitationsOfFramingFieldsAreRefused(name: String) throws {
        let (response, count) = try ProxyRejectionTests.problem(
            "POST / HTTP/1.1\r\nHost: a\r\n\(name): multipart/form-data; boundary=x\r\nContent-Length: 0\r\n\r\n")
        #expect(response?.status == 400)
        #expect(response?.json?["flag"] as? String == "ambiguous_header_name")
        #expect(count == 0)
    }

    @Test func lookalikesAndTheNamesThemselves() {
        for name in ["Content_-Type", "content_type", "ContentType", "Transfer_Encoding", "Content.Length", "HOST_",
                     "_te", "Keep_Alive", "proxy_connection", "Con-nection", "up.grade", "T.E"] {
            #expect(HeaderLookalike.isLookalike(name), "\(name)")
        }
        for name in ["Host", "content-type", "CONTENT-LENGTH", "Transfer-Encoding", "TE", "Trailer", "Keep-Alive",
                     "X-Content-Type-Options", "Content-Types", "Hosts", "Accept", "X-Forwarded-For", "Connection",
                     "t", "Content-Disposition", "Transfer-Encodings-And-More-Letters", "Expect", "Upgrade"] {
            #expect(!HeaderLookalike.isLookalike(name), "\(name)")
        }
    }
}
