import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// A re-encoded body goes upstream as one chunk per read of the client's bytes, however finely the client
/// chunked it: the backend parses a few large chunks, not one per client chunk and piece of one.
@Suite("Upstream chunks per read")
struct ProxyChunkBatchTests {
    static let boundary = "batch-b0undary"

    /// Sixteen 300-byte fields.
    static let parts = (0..<16).map {
        (name: "f\($0)", filename: String?.none, type: String?.none,
         data: [UInt8](repeating: UInt8(97 + $0), count: 300))
    }

    /// `body` in chunks of `size` bytes, the last chunk and an empty trailer section after them.
    static func chunked(_ body: [UInt8], size: Int) -> [UInt8] {
        var out: [UInt8] = []
        for start in stride(from: 0, to: body.count, by: size) {
            let piece = body[start..<min(start + size, body.count)]
            out += Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10]
        }
        return out + Array("0\r\n\r\n".utf8)
    }

    /// The sizes of the data chunks of a complete chunked body, in order; nil when the framing is broken.
    static func chunkSizes(_ bytes: [UInt8]) -> [Int]? {
        var sizes: [Int] = []
        var index = 0
        while let lineEnd = ChunkedBody.find([13, 10], in: bytes, from: index),
            let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16)
        {
            if size == 0 { return bytes[(lineEnd + 2)...].elementsEqual([13, 10]) ? sizes : nil }
            sizes.append(size)
            index = lineEnd + 2 + size + 2
            guard index <= bytes.count, bytes[(index - 2)..<index].elementsEqual([13, 10]) else { return nil }
        }
        return nil
    }

    /// The close delimiter goes upstream in the chunk of the read that brought the body's end, with part bytes,
    /// not in a chunk of its own.
    @Test func aBodysLastReadAndItsCloseDelimiterGoUpstreamAsOneChunk() throws {
        let upstream = try RecordingUpstream()
        defer { upstream.stop() }
        var route = RouteConfiguration(name: "batch", upstream: "up", forward: .stream)
        route.bufferSmallBodies = 0
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(
                name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost", tls: nil)],
            routes: [route])
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        defer {
            proxy.stop()
            proxy.wait()
        }

        let parts = Array(Self.parts.prefix(3))
        let body = ProxyHarness.multipart(Self.boundary, parts)
        let head = "POST /upload HTTP/1.1\r\nHost: example.test\r\nContent-Length: \(body.count)\r\n"
            + "Content-Type: multipart/form-data; boundary=\(Self.boundary)\r\n\r\n"
        let client = try TestHTTPClient(port: port)
        client.send(Array(head.utf8) + body)  // one write of about 1 KiB
        #expect(client.readResponse()?.status == 200)

        #expect(upstream.wait { $0.count == 1 && $0[0].complete })
        let connection = try #require(upstream.connections.first)
        let sizes = try #require(Self.chunkSizes(connection.body), "broken framing")
        let form = try #require(CanonicalForm(connection.decodedBody ?? [], contentType: connection.field("content-type")))
        #expect(form.parts.map(\.data) == parts.map(\.data))
        // The canonical close delimiter is `CRLF--boundary--CRLF` with partgate's own boundary (its length read
        // from the forwarded Content-Type): the last chunk holds more than that.
        let forwardedBoundary = try #require(connection.field("content-type")?.split(separator: "=").last)
        let closeDelimiter = 2 + 2 + forwardedBoundary.utf8.count + 2 + 2
        #expect((sizes.last ?? 0) > closeDelimiter, "upstream chunks: \(sizes)")
    }

    @Test func aClientsSmallChunksGoUpstreamAsOneChunkPerRead() throws {
        let upstream = try RecordingUpstream()
        defer { upstream.stop() }
        var route = RouteConfiguration(name: "batch", upstream: "up", forward: .stream)
        route.bufferSmallBodies = 0  // stream even this small body (else it goes with a Content-Length)
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(
                name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost", tls: nil)],
            routes: [route])
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        defer {
            proxy.stop()
            proxy.wait()
        }

        let body = ProxyHarness.multipart(Self.boundary, Self.parts)
        let clientChunks = (body.count + 96) / 97
        let head = "POST /upload HTTP/1.1\r\nHost: example.test\r\nTransfer-Encoding: chunked\r\n"
            + "Content-Type: multipart/form-data; boundary=\(Self.boundary)\r\n\r\n"
        let client = try TestHTTPClient(port: port)
        client.send(Array(head.utf8) + Self.chunked(body, size: 97))  // one write of about 6 KiB
        #expect(client.readResponse()?.status == 200)

        #expect(upstream.wait { $0.count == 1 && $0[0].complete })
        let connection = try #require(upstream.connections.first)
        let sizes = try #require(Self.chunkSizes(connection.body), "broken framing")
        // One read (or a few, should the kernel split the write): a chunk each, against the client's 61.
        #expect(clientChunks == 61)
        #expect(!sizes.isEmpty && sizes.count <= 3, "upstream chunks: \(sizes)")
        let form = try #require(CanonicalForm(connection.decodedBody ?? [], contentType: connection.field("content-type")))
        #expect(form.parts.map(\.name) == Self.parts.map(\.name))
        #expect(form.parts.map(\.data) == Self.parts.map(\.data))
    }
}
