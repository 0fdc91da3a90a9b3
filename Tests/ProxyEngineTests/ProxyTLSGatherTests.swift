import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// A re-encoded body going to a TLS upstream is copied into one reserved region of the upstream's output per
/// span (chunk framing, part heads and data together). Spans that end inside a delimiter or a part head produce
/// nothing; the body must still arrive whole and well-formed however the client's writes split it.
@Suite("TLS upstream: one gathered write per span", .serialized)
struct ProxyTLSGatherTests {
    static let data = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    static let body = ProxyHarness.multipart("gather-b", [
        (name: "title", filename: nil, type: nil, data: Array("hello".utf8)),
        (name: "file", filename: "a.bin", type: "application/octet-stream", data: data),
        (name: "empty", filename: nil, type: nil, data: []),
    ])

    /// Sends the request's head, then the body in pieces of `piece` bytes, each a separate write with a pause,
    /// through a proxy in front of a TLS echo upstream; returns what the upstream received.
    static func send(piece: Int) throws -> (status: Int?, records: [EchoRecord]) {
        // Streamed, whatever the timing: a body that had all arrived with its head would go whole instead.
        var route = RouteConfiguration(name: "all", upstream: "up")
        route.bufferSmallBodies = 0
        let proxy = try TLSEchoProxy(route: route)
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 10)
        let request = ProxyHarness.request(body, boundary: "gather-b")
        let headLength = request.count - body.count
        client.send(Array(request.prefix(headLength)))
        var offset = headLength
        while offset < request.count {
            let end = min(request.count, offset + piece)
            client.send(Array(request[offset..<end]))
            offset = end
            usleep(300)
        }
        return (client.readResponse()?.status, proxy.recorder.records)
    }

    @Test(arguments: [1, 3, 7, 64, 100_000])
    func bodyArrivesWholeHoweverTheClientSplitsIt(piece: Int) throws {
        let (status, records) = try Self.send(piece: piece)
        #expect(status == 200)
        let record = try #require(records.first)
        #expect(record.error == nil)
        #expect(record.field("transfer-encoding") == "chunked")
        #expect(record.parts.map(\.name) == ["title", "file", "empty"])
        #expect(record.parts.map(\.size) == [5, Int64(Self.data.count), 0])
        let digest = SHA256Digest()
        Self.data.withUnsafeBytes { digest.update($0) }
        #expect(record.parts[1].sha256 == digest.finalize().hexString)
    }
}
