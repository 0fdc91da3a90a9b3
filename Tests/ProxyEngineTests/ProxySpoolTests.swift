import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// `forward: spool`: the upstream gets the same body as in stream mode, with an exact Content-Length and no
/// chunked framing, whether the spool stayed in memory or moved to a file, to a plain or a TLS upstream.
@Suite("Spool forwarding", .serialized)
struct ProxySpoolTests {
    /// What an echo upstream received for `request` on a route in `mode`, and how many spool files the proxy
    /// held open while the upstream read the request.
    static func forward(
        _ request: [UInt8], _ mode: RouteConfiguration.ForwardMode, spoolMemory: Int64 = 64 * 1024,
        tls: Bool = false, rules: [Rule] = []
    ) throws -> (record: EchoRecord?, status: Int?, openSpoolFiles: Int, clean: Bool) {
        let directory = try SpoolDirectory()
        let open = Counter()
        let path = directory.path
        let proxy = try SpoolProxy(
            route: SpoolRequests.route(mode, spoolMemory: spoolMemory, rules: rules), tls: tls, directory: directory
        ) { _ in open.set(SpoolDirectory.openDeletedFiles(in: path).count) }
        defer { proxy.shutdown() }
        let response = try proxy.send(request)
        return (proxy.recorder.records.first, response?.status, open.value, directory.isClean)
    }

    @Test(arguments: [
        (spilled: false, tls: false), (spilled: true, tls: false),
        (spilled: false, tls: true), (spilled: true, tls: true),
    ])
    func spooledBodyIsTheStreamedBodyWithAContentLength(spilled: Bool, tls: Bool) throws {
        let request = SpoolRequests.upload(SpoolRequests.form(fileBytes: 2 << 20))
        let memory: Int64 = spilled ? 64 * 1024 : RouteConfiguration.defaultSpoolMemory
        let spooled = try Self.forward(request, .spool, spoolMemory: memory, tls: tls)
        let streamed = try Self.forward(request, .stream, tls: tls)
        #expect(spooled.status == 200 && streamed.status == 200)
        let spool = try #require(spooled.record)
        let stream = try #require(streamed.record)
        #expect(spool.field("content-length") == String(spool.bodyBytes))
        #expect(spool.field("transfer-encoding") == nil)
        #expect(stream.field("transfer-encoding") == "chunked" && stream.field("content-length") == nil)
        #expect(spool.error == nil && spool.parts.count == 3)
        #expect(spool.parts == stream.parts)
        #expect(spool.bodyBytes == stream.bodyBytes)
        #expect(spool.parts[1].size == 2 << 20)
        // A file spool is open while the upstream reads it (a plain upstream's sendfile segment may hold a
        // second descriptor on it until its last bytes are drained); a memory spool never makes one.
        #expect(spilled ? (1...2).contains(spooled.openSpoolFiles) : spooled.openSpoolFiles == 0)
        #expect(spooled.clean)
    }

    @Test func chunkedUploadGoesUpstreamWithAContentLength() throws {
        let body = SpoolRequests.form(fileBytes: 300_000)
        let spooled = try Self.forward(SpoolRequests.chunked(body), .spool)
        let record = try #require(spooled.record)
        #expect(spooled.status == 200)
        #expect(record.field("content-length") == String(record.bodyBytes))
        #expect(record.field("transfer-encoding") == nil)
        #expect(record.parts.map(\.size) == [7, 300_000, 16])
        #expect(spooled.openSpoolFiles >= 1 && spooled.clean)
    }

    /// Bodies that are not rewritten are spooled too (as nginx's proxy_request_buffering does): the same
    /// bytes, and a chunked one arrives with a Content-Length.
    @Test(arguments: [false, true])
    func passthroughBodiesAreSpooledToo(chunked: Bool) throws {
        let body = SpoolRequests.bytes(300_000, seed: 7)
        let request = chunked
            ? SpoolRequests.chunked(body, contentType: "application/octet-stream")
            : Array(("POST /raw HTTP/1.1\r\nHost: a\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        let spooled = try Self.forward(request, .spool)
        let streamed = try Self.forward(request, .stream)
        let record = try #require(spooled.record)
        #expect(spooled.status == 200)
        #expect(record.field("content-length") == "300000" && record.field("transfer-encoding") == nil)
        #expect(record.field("content-type") == "application/octet-stream")
        #expect(record.bodyBytes == 300_000 && record.bodySHA256 == streamed.record?.bodySHA256)
        #expect(spooled.openSpoolFiles >= 1 && spooled.clean)
    }

    @Test func requestWithoutABodyGoesAtOnce() throws {
        let spooled = try Self.forward(Array("GET /status HTTP/1.1\r\nHost: a\r\n\r\n".utf8), .spool)
        #expect(spooled.status == 200)
        #expect(spooled.record?.target == "/status" && spooled.record?.bodyBytes == 0)
        #expect(spooled.clean)
    }

    @Test func expectContinueIsAnsweredByPartgate() throws {
        let proxy = try SpoolProxy(route: SpoolRequests.route(.spool, spoolMemory: 64 * 1024))
        defer { proxy.shutdown() }
        let body = SpoolRequests.form(fileBytes: 200_000)
        let request = SpoolRequests.upload(body, extra: "Expect: 100-continue\r\n")
        let (interim, response) = try proxy.sendAfterContinue(request, bodyCount: body.count)
        #expect(interim == 100)
        #expect(response?.status == 200)
        let record = try #require(proxy.recorder.records.first)
        #expect(record.field("expect") == nil)
        #expect(record.field("content-length") == String(record.bodyBytes))
        #expect(record.parts.map(\.size) == [7, 200_000, 16])
    }

    /// One upstream connection carries successive spooled requests (the pool takes it back once the spool
    /// was sent and answered).
    @Test func upstreamConnectionIsReused() throws {
        let proxy = try SpoolProxy(route: SpoolRequests.route(.spool, spoolMemory: 64 * 1024))
        defer { proxy.shutdown() }
        for _ in 0..<3 {
            #expect(try proxy.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 100_000)))?.status == 200)
        }
        #expect(proxy.recorder.records.map(\.connectionRequest) == [1, 2, 3])
        #expect(proxy.directory.isClean)
    }
}
