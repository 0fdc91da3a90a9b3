import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// `buffer_small_bodies` on a `forward: stream` route: a re-encoded body with a Content-Length of at most that size,
/// whose bytes all arrived with its head, goes upstream whole with its exact Content-Length (held in memory, as a
/// spool holds it); a larger one, one still arriving, a chunked one, or any when the setting is 0 streams chunked.
@Suite("Small bodies on stream routes", .serialized)
struct ProxySmallBodyTests {
    static func route(_ bufferSmallBodies: Int64? = nil, upstream: String = "echo", rules: [Rule] = []) -> RouteConfiguration {
        var route = SpoolRequests.route(.stream, upstream: upstream, rules: rules)
        if let bufferSmallBodies { route.bufferSmallBodies = bufferSmallBodies }
        return route
    }

    /// What the echo upstream got for `request` (sent at once on a new connection).
    static func forward(_ request: [UInt8], route: RouteConfiguration, tls: Bool) throws -> (EchoRecord?, Int?, Bool) {
        let proxy = try SpoolProxy(route: route, tls: tls)
        defer { proxy.shutdown() }
        let status = try proxy.send(request)?.status
        return (proxy.recorder.records.first, status, proxy.directory.isClean)
    }

    @Test(arguments: [false, true])
    func wholeSmallBodyGoesWithItsContentLength(tls: Bool) throws {
        let request = SpoolRequests.upload(SpoolRequests.form(fileBytes: 2000))
        let (whole, status, clean) = try Self.forward(request, route: Self.route(), tls: tls)
        let (streamed, streamedStatus, _) = try Self.forward(request, route: Self.route(0), tls: tls)
        #expect(status == 200 && streamedStatus == 200)
        let record = try #require(whole)
        let chunked = try #require(streamed)
        #expect(record.field("content-length") == String(record.bodyBytes))
        #expect(record.field("transfer-encoding") == nil)
        #expect(chunked.field("transfer-encoding") == "chunked" && chunked.field("content-length") == nil)
        // The same re-encoding either way (a fresh boundary of the same length each time).
        #expect(record.error == nil && record.parts.map(\.size) == [7, 2000, 16])
        #expect(record.parts == chunked.parts && record.bodyBytes == chunked.bodyBytes)
        #expect(record.boundary != nil && record.boundary != SpoolRequests.boundary)
        #expect(clean)  // held in memory: no spool file
    }

    @Test func largerBodyStreamsChunked() throws {
        let request = SpoolRequests.upload(SpoolRequests.form(fileBytes: 2000))
        let (record, status, _) = try Self.forward(request, route: Self.route(1024), tls: false)
        #expect(status == 200)
        #expect(record?.field("transfer-encoding") == "chunked" && record?.field("content-length") == nil)
        #expect(record?.parts.map(\.size) == [7, 2000, 16])
    }

    @Test func chunkedRequestStreamsChunked() throws {
        let request = SpoolRequests.chunked(SpoolRequests.form(fileBytes: 2000), chunk: 500)
        let (record, status, _) = try Self.forward(request, route: Self.route(), tls: false)
        #expect(status == 200)
        #expect(record?.field("transfer-encoding") == "chunked")
        #expect(record?.parts.map(\.size) == [7, 2000, 16])
    }

    /// A body that was not there when the head was read (the client waited for `100 Continue`) streams chunked.
    @Test func bodyArrivingAfterItsHeadStreamsChunked() throws {
        let proxy = try SpoolProxy(route: Self.route())
        defer { proxy.shutdown() }
        let body = SpoolRequests.form(fileBytes: 2000)
        let request = SpoolRequests.upload(body, extra: "Expect: 100-continue\r\n")
        let (interim, response) = try proxy.sendAfterContinue(request, bodyCount: body.count)
        #expect(interim == 100)
        #expect(response?.status == 200)
        let record = try #require(proxy.recorder.records.first)
        #expect(record.field("transfer-encoding") == "chunked" && record.field("expect") == nil)
        #expect(record.parts.map(\.size) == [7, 2000, 16])
    }

    /// A small body refused by a rule never reaches the upstream, not even as a connection; with the setting at 0
    /// a connection was opened for it (its head was on its way when the last part was refused).
    @Test(arguments: [nil, Int64(0)])
    func refusedSmallBodyReachesNoUpstream(bufferSmallBodies: Int64?) throws {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let route = Self.route(bufferSmallBodies, upstream: "up", rules: [SpoolRequests.rejectPHP])
        let (proxy, port) = try SpoolRequests.proxy(route: route, upstreamPort: upstream.port, directory: directory.path)
        defer { proxy.stop(); proxy.wait() }
        let body = SpoolRequests.form(fileBytes: 2000, lastFilename: "shell.php")
        let client = try TestHTTPClient(port: port)
        client.send(SpoolRequests.upload(body, path: "/bad"))
        let response = client.readResponse()
        #expect(response?.status == 422)
        #expect(response?.json?["flag"] as? String == "no-php")
        let good = try TestHTTPClient(port: port)
        good.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 1000), path: "/good"))
        #expect(good.readResponse()?.status == 200)
        Thread.sleep(forTimeInterval: 0.2)  // a connection opened for the refused request registers by now
        #expect(upstream.connections.count == (bufferSmallBodies == nil ? 1 : 2))
        #expect(upstream.connections.contains { $0.head.hasPrefix("POST /good ") })
        #expect(directory.isClean)
    }

    /// Successive requests on one client connection, small (sent whole from the worker's reused spool) and
    /// larger (streamed) in turn, each arrive exactly as re-encoded: nothing of one body leaks into the next.
    @Test(arguments: [false, true])
    func successiveBodiesReuseTheSpoolCleanly(tls: Bool) throws {
        let proxy = try SpoolProxy(route: Self.route(8 * 1024), tls: tls)
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port)
        let sizes = [3000, 10, 20_000, 5000, 1, 4000]
        for size in sizes {
            client.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: size)))
            #expect(client.readResponse()?.status == 200)
        }
        let records = proxy.recorder.records
        #expect(records.count == sizes.count)
        for (record, size) in zip(records, sizes) {
            let whole = size <= 8 * 1024 - 400  // the form's other parts and delimiters take under 400 bytes
            #expect(record.error == nil)
            #expect(record.parts.map(\.size) == [7, Int64(size), 16], "\(size)")
            #expect(record.parts[1].sha256 == SpoolRequests.bytes(size).sha256Hex, "\(size)")
            #expect((record.field("content-length") != nil) == whole, "\(size)")
            #expect((record.field("transfer-encoding") == "chunked") == !whole, "\(size)")
        }
        #expect(records.map(\.connectionRequest) == Array(1...sizes.count))
    }
}
