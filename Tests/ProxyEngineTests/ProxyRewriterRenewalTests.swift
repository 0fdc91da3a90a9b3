import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// A keep-alive connection renews the last body's rewriter for the next one (its object and output buffers are
/// reused): nothing of one body may show in the next.
@Suite("Proxy rewriter renewal", .serialized)
struct ProxyRewriterRenewalTests {
    typealias Part = (name: String, filename: String?, type: String?, data: [UInt8])

    static func digest(_ data: [UInt8]) -> String {
        let digest = SHA256Digest()
        data.withUnsafeBytes { digest.update($0) }
        return digest.finalize().hexString
    }

    @Test func eachBodyOnAKeepAliveConnectionIsRewrittenAlone() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        // Small forms, a form with many parts (its grown buffers are not kept), a large part, then small again:
        // each with its own client boundary.
        let forms: [(boundary: String, parts: [Part])] = [
            ("first-b", [(name: "a", filename: nil, type: nil, data: Array("one".utf8))]),
            ("second-boundary-zz", [
                (name: "x", filename: "x.txt", type: "text/plain; charset=utf-8", data: Array("two".utf8)),
                (name: "y", filename: nil, type: nil, data: Array(repeating: 0x41, count: 3000)),
            ]),
            ("many", (0..<100).map { (name: "f\($0)", filename: nil, type: nil, data: Array("v\($0)".utf8)) }),
            ("big", [(name: "blob", filename: "b.bin", type: "application/octet-stream",
                      data: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })]),
            ("last", [(name: "z", filename: nil, type: nil, data: [])]),
        ]
        let client = try TestHTTPClient(port: harness.port)
        for form in forms {
            client.send(ProxyHarness.request(ProxyHarness.multipart(form.boundary, form.parts), boundary: form.boundary))
            #expect(client.readResponse()?.status == 200)
        }
        let records = harness.recorder.records
        try #require(records.count == forms.count)
        var boundaries = Set<String>()
        for (record, form) in zip(records, forms) {
            #expect(record.error == nil)
            let boundary = try #require(record.boundary)
            #expect(boundary.hasPrefix("partgate-") && boundary != form.boundary)
            boundaries.insert(boundary)
            #expect(record.parts.map(\.name) == form.parts.map(\.name))
            #expect(record.parts.map(\.filename) == form.parts.map(\.filename))
            #expect(record.parts.map(\.size) == form.parts.map { Int64($0.data.count) })
            #expect(record.parts.map(\.sha256) == form.parts.map { Self.digest($0.data) })
        }
        #expect(boundaries.count == forms.count)
    }

    /// A body the policy refuses, then one it passes, on the same connection: the refusal's state does not carry.
    @Test func aRefusedBodyLeavesNothingForTheNext() throws {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        // A field with no Content-Disposition name is refused by the parser (400) and the connection closes.
        let bad = Array("--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--\r\n".utf8)
        let good = ProxyHarness.multipart("b", [(name: "ok", filename: nil, type: nil, data: Array("fine".utf8))])
        client.send(ProxyHarness.request(good, boundary: "b"))
        #expect(client.readResponse()?.status == 200)
        client.send(ProxyHarness.request(bad, boundary: "b"))
        #expect(client.readResponse()?.status == 400)
        let second = try TestHTTPClient(port: harness.port)
        second.send(ProxyHarness.request(good, boundary: "b"))
        #expect(second.readResponse()?.status == 200)
        second.send(ProxyHarness.request(good, boundary: "b"))
        #expect(second.readResponse()?.status == 200)
        let records = harness.recorder.records
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0.parts.map(\.name) == ["ok"] && $0.error == nil })
    }
}
