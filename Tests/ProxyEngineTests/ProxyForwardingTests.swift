import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

@Suite("Proxy forwarding", .serialized)
struct ProxyForwardingTests {
    @Test func multipartIsReencodedWithAFreshBoundary() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) } + Array("\r\n--client-boundary-y\r\n--client-boundary".utf8)
        let body = ProxyHarness.multipart("client-boundary-x", [
            (name: "title", filename: nil, type: nil, data: Array("hello".utf8)),
            (name: "file", filename: "a.bin", type: "application/octet-stream", data: data),
        ])
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(body, boundary: "client-boundary-x"))
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        let record = try #require(harness.recorder.records.first)
        #expect(record.boundary != "client-boundary-x")
        #expect(record.boundary?.hasPrefix("partgate-") == true)
        // Sent at once and under buffer_small_bodies: re-encoded whole, with its length (ProxySmallBodyTests).
        #expect(record.field("transfer-encoding") == nil)
        #expect(record.field("content-length") == String(record.bodyBytes))
        #expect(record.field("x-forwarded-for") == "127.0.0.1")
        #expect(record.field("x-forwarded-proto") == "http")
        #expect(record.field("via") == "1.1 partgate")
        #expect(record.error == nil)
        #expect(record.parts.map(\.name) == ["title", "file"])
        #expect(record.parts[1].size == Int64(data.count))
        #expect(record.parts[1].filename == "a.bin")
        let digest = SHA256Digest()
        data.withUnsafeBytes { digest.update($0) }
        #expect(record.parts[1].sha256 == digest.finalize().hexString)
    }

    /// Failed before, each in its own way:
    /// - an absolute-form target was routed on its authority but the client's different Host went upstream
    ///   (RFC 9112 §3.2.2: a proxy replaces Host with the target's authority), so a route's policy could be
    ///   chosen by one name and the backend serve another;
    /// - an HTTP/1.0 request without Host went upstream as HTTP/1.1 without Host;
    /// - a Content-Length of `010` went upstream as spelled (8 to a parser that reads octal).
    @Test func hostAndLengthGoUpstreamAsTheProxyReadThem() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("POST http://routed.example/x HTTP/1.1\r\nHost: other.example\r\nContent-Length: 010\r\n\r\n0123456789")
        #expect(client.readResponse()?.status == 200)
        client.send("POST HTTP://Same.Example:80/y HTTP/1.1\r\nHost: same.example:80\r\nContent-Length: 2\r\n\r\nok")
        #expect(client.readResponse()?.status == 200)
        client.send("GET /z HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        let records = harness.recorder.records
        try #require(records.count == 3)
        #expect(records[0].field("host") == "routed.example")
        #expect(records[0].field("content-length") == "10")
        #expect(records[0].bodyBytes == 10)
        // The same authority in another case: the received Host stays.
        #expect(records[1].field("host") == "same.example:80")
        // No Host at all: the upstream's own name and port (plain HTTP, not port 80).
        let port = try #require(records[2].field("host")?.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(records[2].field("host") == "localhost:\(port)")
        #expect(port != 80)
    }

    /// Failed before: forwarding fields the client named in Connection were still extended with its values.
    @Test func forwardingFieldsNamedInConnectionAreDropped() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("GET /a HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 10.0.0.1\r\nVia: 1.1 a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        client.send("GET /b HTTP/1.1\r\nHost: h\r\nConnection: X-Forwarded-For, via\r\nX-Forwarded-For: 6.6.6.6\r\nVia: 1.1 a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        let records = harness.recorder.records
        try #require(records.count == 2)
        #expect(records[0].field("x-forwarded-for") == "10.0.0.1, 127.0.0.1")
        #expect(records[0].field("via") == "1.1 a, 1.1 partgate")
        #expect(records[1].field("x-forwarded-for") == "127.0.0.1")
        #expect(records[1].field("via") == "1.1 partgate")
    }

    @Test func keepAliveServesSeveralRequestsAndPipelining() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let body = ProxyHarness.multipart("b", [(name: "a", filename: nil, type: nil, data: Array("1".utf8))])
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(body, boundary: "b") + ProxyHarness.request(body, boundary: "b"))
        #expect(client.readResponse()?.status == 200)
        #expect(client.readResponse()?.status == 200)
        client.send(ProxyHarness.request(body, boundary: "b"))
        #expect(client.readResponse()?.status == 200)
        #expect(harness.recorder.records.count == 3)
    }

    @Test func malformedMultipartIsRefusedNamingTheFlag() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--bX\r\n".utf8)
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(body, boundary: "b"))
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.header("content-type") == "application/problem+json")
        #expect(response.json?["flag"] as? String == "delimiter_garbage")
    }

    @Test func otherBodiesPassThroughUnchanged() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
        #expect(client.readResponse()?.status == 200)
        client.send("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        let records = harness.recorder.records
        #expect(records.count == 2)
        #expect(records[0].bodyBytes == 7 && records[0].field("content-length") == "7")
        #expect(records[1].bodyBytes == 5 && records[1].field("transfer-encoding") == "chunked")
    }
}
