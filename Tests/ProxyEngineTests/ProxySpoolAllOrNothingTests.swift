import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// `forward: spool` is all or nothing: a request refused anywhere in its body never reaches the upstream, not
/// even as a connection. (Stream mode, the contrast, has already sent part of it by then.)
@Suite("Spool all-or-nothing", .serialized)
struct ProxySpoolAllOrNothingTests {
    struct Outcome {
        var response: TestHTTPClient.Response?
        /// What the upstream saw, for the refused request and then a good one.
        var connections: [CountingUpstream.Connection]
        var clean: Bool
    }

    /// Sends `refused`, then a good request to `/good`; returns the first response and what the upstream saw.
    static func run(_ refused: [UInt8], _ mode: RouteConfiguration.ForwardMode, spoolDirectory: String? = nil,
                    limits: RequestLimits = RequestLimits()) throws -> Outcome {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let route = SpoolRequests.route(mode, spoolMemory: 64 * 1024, upstream: "up", rules: [SpoolRequests.rejectPHP],
                                        limits: limits)
        let (proxy, port) = try SpoolRequests.proxy(route: route, upstreamPort: upstream.port,
                                                   directory: spoolDirectory ?? directory.path)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(refused)
        let response = client.readResponse()
        let clean = directory.isClean
        let good = try TestHTTPClient(port: port)
        good.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 1000), path: "/good"))
        #expect(good.readResponse()?.status == 200)
        // A connection opened for the refused request would have been accepted before the good one's; give
        // its handler a moment to register anyway.
        Thread.sleep(forTimeInterval: 0.2)
        return Outcome(response: response, connections: upstream.connections, clean: clean)
    }

    @Test(arguments: [RouteConfiguration.ForwardMode.spool, .stream])
    func rejectionInTheLastPartSendsNothing(mode: RouteConfiguration.ForwardMode) throws {
        let body = SpoolRequests.form(fileBytes: 1 << 20, lastFilename: "shell.php")
        let outcome = try Self.run(SpoolRequests.upload(body, path: "/bad"), mode)
        #expect(outcome.response?.status == 422)
        #expect(outcome.response?.json?["flag"] as? String == "no-php")
        #expect(outcome.response?.json?["part"] as? Int == 2)
        if mode == .spool {
            #expect(outcome.connections.count == 1)
            #expect(outcome.connections.first?.head.hasPrefix("POST /good ") == true)
            #expect(outcome.clean)
        } else {
            // Stream mode sent the head and the first parts before the last part was refused.
            let refused = outcome.connections.first { $0.head.hasPrefix("POST /bad ") }
            #expect(outcome.connections.count == 2)
            #expect((refused?.bodyBytes ?? 0) > 0)
        }
    }

    @Test func malformedEndSendsNothing() throws {
        // The close delimiter is missing: the body ends inside the last part.
        var body = SpoolRequests.form(fileBytes: 1 << 20)
        body.removeLast("--\(SpoolRequests.boundary)--\r\n".utf8.count)
        let outcome = try Self.run(SpoolRequests.upload(body, path: "/bad"), .spool)
        #expect(outcome.response?.status == 400)
        #expect(outcome.connections.count == 1 && outcome.connections.first?.head.hasPrefix("POST /good ") == true)
        #expect(outcome.clean)
    }

    @Test func bodyOverTheLimitSendsNothing() throws {
        // Chunked, so the limit is found while spooling, not from a Content-Length.
        let body = SpoolRequests.form(fileBytes: 1 << 20)
        let outcome = try Self.run(SpoolRequests.chunked(body, path: "/bad"), .spool,
                                   limits: RequestLimits(bodyBytes: 512 * 1024))
        #expect(outcome.response?.status == 413)
        #expect(outcome.response?.json?["flag"] as? String == "limit_body_bytes")
        #expect(outcome.connections.count == 1 && outcome.connections.first?.head.hasPrefix("POST /good ") == true)
        #expect(outcome.clean)
    }

    /// A spool that cannot make its file (the directory does not exist) refuses the request with 500, and the
    /// upstream sees nothing; bodies that fit in memory still pass.
    @Test func spoolFileFailureIs500() throws {
        let body = SpoolRequests.form(fileBytes: 1 << 20)
        let outcome = try Self.run(
            SpoolRequests.upload(body, path: "/bad"), .spool, spoolDirectory: "/nonexistent/partgate")
        #expect(outcome.response?.status == 500)
        #expect(outcome.response?.json?["flag"] as? String == "spool_failed")
        #expect(outcome.connections.count == 1 && outcome.connections.first?.head.hasPrefix("POST /good ") == true)
    }

    /// What the upstream gets from a spooled request: the head with the exact length of the re-encoded body.
    @Test func upstreamGetsTheExactLength() throws {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: 64 * 1024, upstream: "up"), upstreamPort: upstream.port,
            directory: directory.path)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 1 << 20)))
        #expect(client.readResponse()?.status == 200)
        let seen = try #require(upstream.connections.first)
        let length = seen.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        let value = length.map { String($0.split(separator: ":")[1]).trimmingCharacters(in: .whitespaces) }
        #expect(value == String(seen.bodyBytes))
        #expect(!seen.head.lowercased().contains("transfer-encoding"))
        #expect(directory.isClean)
    }
}
