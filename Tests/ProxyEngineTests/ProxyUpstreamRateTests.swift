import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// `max_upstream_rate`: a throttled route sends a body upstream no faster than its rate (a lower bound on
/// the time, with generous slack; no upper bound is judged), and the bytes arrive intact.
@Suite("Proxy upstream rate limit", .serialized)
struct ProxyUpstreamRateTests {
    struct Setup: Sendable, CustomTestStringConvertible {
        var forward: RouteConfiguration.ForwardMode
        var tls: Bool
        var testDescription: String { "\(forward.rawValue), \(tls ? "TLS" : "plain") upstream" }
    }

    /// The plain spool case goes by `sendfile` (the body outgrows 64 KiB of spool memory), whose chains libevent
    /// sends whole, whatever the bucket holds.
    @Test(arguments: [
        Setup(forward: .stream, tls: false), Setup(forward: .spool, tls: true), Setup(forward: .spool, tls: false),
    ])
    func aThrottledBodyTakesAtLeastSizeOverRate(setup: Setup) throws {
        let rate: Int64 = 256 * 1024
        var route = RouteConfiguration(name: "slow", upstream: "echo", forward: setup.forward)
        route.maxUpstreamRate = rate
        route.spoolMemory = 64 * 1024
        let proxy = try SpoolProxy(route: route, tls: setup.tls)
        defer { proxy.shutdown() }
        let file = SpoolRequests.bytes(768 * 1024, seed: 5)
        let body = ProxyHarness.multipart(
            SpoolRequests.boundary, [(name: "file", filename: "f.bin", type: "application/octet-stream", data: file)])
        let started = Date()
        let response = try proxy.send(SpoolRequests.upload(body))
        let elapsed = Date().timeIntervalSince(started)
        #expect(response?.status == 200)
        let record = try #require(proxy.recorder.records.first)
        #expect(record.parts.count == 1)
        #expect(record.parts.first?.size == Int64(file.count))
        let digest = SHA256Digest()
        file.withUnsafeBytes { digest.update($0) }
        #expect(record.parts.first?.sha256 == digest.finalize().hexString)
        // 768 KiB at 256 KiB/s is 3 s. The bucket starts with a tenth of a second's worth, and a TLS write may
        // run ahead of it by one chain (at most 32 KiB here: see CoalescingOutput), so at least 2.7 s; with
        // 64-256 KiB chains a loaded run took 1.5 s.
        #expect(elapsed >= 2.5, "took \(elapsed) s")
    }

    @Test func aPooledConnectionCarriesTheNextRoutesRate() throws {
        // Two routes to one upstream: the throttled request's connection is pooled and reused by the next
        // request on a route without a rate; both arrive intact on one connection.
        var slow = RouteConfiguration(name: "slow", match: RouteMatch(pathPrefix: "/slow"), upstream: "echo")
        slow.maxUpstreamRate = 64 * 1024
        let fast = RouteConfiguration(name: "fast", upstream: "echo")
        let harness = try ProxyHarness(settings: { $0.routes = [slow, fast] })
        defer { harness.shutdown() }
        let file = SpoolRequests.bytes(100 * 1024, seed: 9)
        let body = ProxyHarness.multipart("b0undary", [(name: "f", filename: "f.bin", type: nil, data: file)])
        let client = try TestHTTPClient(port: harness.port)
        let started = Date()
        client.send(ProxyHarness.request(body, boundary: "b0undary", path: "/slow"))
        #expect(client.readResponse()?.status == 200)
        #expect(Date().timeIntervalSince(started) >= 1.0)
        client.send(ProxyHarness.request(body, boundary: "b0undary", path: "/fast"))
        #expect(client.readResponse()?.status == 200)
        let records = harness.recorder.records
        #expect(records.map(\.target) == ["/slow", "/fast"])
        #expect(records.map(\.connectionRequest) == [1, 2])
        #expect(records.allSatisfy { $0.parts.first?.size == Int64(file.count) })
    }
}
