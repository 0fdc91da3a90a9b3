import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// What a reload changes for requests and connections already there: a request in flight keeps the
/// configuration it started with, the next request on the same connection gets the new one, and pooled
/// upstream connections survive a reload only when their upstream did not change.
@Suite("serve: configuration snapshots across reloads", .serialized)
struct ServeReloadSnapshotTests {
    @Test func aRequestInFlightFinishesUnderItsConfigurationAndTheNextOneGetsTheNew() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false))
        defer { serve.kill() }
        let client = try TestHTTPClient(port: ports[0])
        var request = ReloadFixture.upload("/in-flight", fileBytes: 512 * 1024)
        let headEnd = try #require(request.firstRange(of: Array("\r\n\r\n".utf8)))
        request.insert(contentsOf: Array("\r\nExpect: 100-continue".utf8), at: headEnd.lowerBound)
        let split = request.count / 2
        client.send(Array(request[..<split]))
        #expect(client.readInterimResponse() == 100, "the exchange started under the first configuration")

        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: true))
        #expect(ReloadFixture.waitForReload(serve, generation: 2) != nil)
        client.send(Array(request[split...]))
        let inFlight = try #require(client.readResponse())
        #expect(inFlight.status == 200)
        #expect(ReloadFixture.partNames(inFlight) == ["keep", "secret", "data"], "the old rules, to its end")
        #expect(inFlight.header("connection") == nil, "the connection stays open")

        let next = try #require(ReloadFixture.post(client, "/next"))
        #expect(ReloadFixture.partNames(next) == ["keep", "data"], "the same connection, the new rules")
        #expect(fixture.recorder.records.map { $0.parts.map(\.name) } == [["keep", "secret", "data"], ["keep", "data"]])
        serve.expectCleanStop()
    }

    @Test func pooledUpstreamConnectionsSurviveOnlyAnUnchangedUpstream() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        // One worker, so that every request sees the same pool.
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false, workers: 1))
        defer { serve.kill() }
        func upload(_ path: String) throws {
            let client = try TestHTTPClient(port: ports[0])
            #expect(ReloadFixture.post(client, path)?.status == 200, "\(path)")
        }
        try upload("/one")
        // Only the route's rules change: the upstream keeps its pooled connection.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: true, workers: 1))
        let unchanged = try #require(ReloadFixture.waitForReload(serve, generation: 2))
        #expect(unchanged["drained_upstreams"] as? String == "")
        try upload("/two")
        // The upstream's entry changes: its idle connection is closed, the next request opens a new one.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(
            fixture, stripSecret: true, workers: 1, upstreamExtra: ["connect_timeout: 4s"]))
        let changed = try #require(ReloadFixture.waitForReload(serve, generation: 3))
        #expect(changed["drained_upstreams"] as? String == "echo")
        try upload("/three")
        let records = fixture.recorder.records
        #expect(records.map(\.target) == ["/one", "/two", "/three"])
        #expect(records.map(\.connectionRequest) == [1, 2, 1])
        serve.expectCleanStop()
    }
}
