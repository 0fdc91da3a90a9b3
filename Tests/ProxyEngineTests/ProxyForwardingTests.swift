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
