import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Multi-megabyte bodies to a TLS upstream, read and forwarded in many pieces. The upstream must receive every byte, in order, for re-encoded and relayed multipart bodies
/// and for other bodies, sent with Content-Length or chunked, one or several per connection.
@Suite("TLS upstream: large bodies arrive whole", .serialized)
struct ProxyTLSLargeBodyTests {
    static let first = SpoolRequests.bytes(3_000_000, seed: 11)
    static let second = SpoolRequests.bytes(1_500_000, seed: 12)
    static let body = ProxyHarness.multipart(SpoolRequests.boundary, [
        (name: "title", filename: nil, type: nil, data: Array("holiday".utf8)),
        (name: "first", filename: "first.bin", type: "application/octet-stream", data: first),
        (name: "note", filename: nil, type: nil, data: Array("between".utf8)),
        (name: "second", filename: "second.bin", type: "application/octet-stream", data: second),
    ])

    static func proxy(_ mode: RouteConfiguration.MultipartMode) throws -> TLSEchoProxy {
        try TLSEchoProxy(route: RouteConfiguration(name: "all", upstream: "up", multipart: mode))
    }

    static func expectWholeForm(_ record: EchoRecord?, _ mode: RouteConfiguration.MultipartMode) throws {
        let record = try #require(record)
        #expect(record.error == nil)
        #expect(record.parts.map(\.name) == ["title", "first", "note", "second"])
        #expect(record.parts.map(\.size) == [7, 3_000_000, 7, 1_500_000])
        #expect(record.parts[1].sha256 == first.sha256Hex)
        #expect(record.parts[3].sha256 == second.sha256Hex)
        if mode == .passthrough {
            #expect(record.bodySHA256 == body.sha256Hex)
        } else {
            #expect(record.boundary != SpoolRequests.boundary)
        }
    }

    @Test(arguments: [RouteConfiguration.MultipartMode.rewrite, .passthrough], [false, true])
    func formArrivesWhole(mode: RouteConfiguration.MultipartMode, chunked: Bool) throws {
        let proxy = try Self.proxy(mode)
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port)
        client.send(chunked ? SpoolRequests.chunked(Self.body, chunk: 700_000) : SpoolRequests.upload(Self.body))
        #expect(client.readResponse(method: "POST")?.status == 200)
        try Self.expectWholeForm(proxy.recorder.records.first, mode)
    }

    @Test(arguments: [false, true])
    func otherBodyArrivesWhole(chunked: Bool) throws {
        let proxy = try Self.proxy(.rewrite)
        defer { proxy.shutdown() }
        let bytes = SpoolRequests.bytes(4_000_000, seed: 13)
        let request = chunked
            ? SpoolRequests.chunked(bytes, contentType: "application/octet-stream", path: "/raw", chunk: 300_000)
            : Array(("POST /raw HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: \(bytes.count)\r\n\r\n").utf8) + bytes
        let client = try TestHTTPClient(port: proxy.port)
        client.send(request)
        #expect(client.readResponse(method: "POST")?.status == 200)
        let record = try #require(proxy.recorder.records.first)
        #expect(record.bodyBytes == 4_000_000 && record.bodySHA256 == bytes.sha256Hex)
    }

    /// Three forms on one connection, the second one chunked.
    @Test func severalFormsOnOneConnection() throws {
        let proxy = try Self.proxy(.rewrite)
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port)
        for round in 0..<3 {
            client.send(round == 1 ? SpoolRequests.chunked(Self.body, chunk: 65_536) : SpoolRequests.upload(Self.body))
            #expect(client.readResponse(method: "POST")?.status == 200)
        }
        let records = proxy.recorder.records
        #expect(records.count == 3)
        for record in records { try Self.expectWholeForm(record, .rewrite) }
    }
}
