import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Listeners across SIGHUP on the real binary: an added one accepts, a removed one refuses, an unchanged
/// one keeps its socket and its connections.
@Suite("serve: listeners across reloads", .serialized)
struct ServeReloadListenerTests {
    @Test func anAddedListenerAcceptsAndARemovedOneRefuses() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false))
        defer { serve.kill() }
        let first = ports[0]
        let kept = try TestHTTPClient(port: first)
        #expect(ReloadFixture.post(kept, "/before")?.status == 200)

        // Add a listener on a port the test found free; the first one (127.0.0.1:0) is unchanged.
        let added = try ReloadFixture.freePort()
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(
            fixture, listeners: ["127.0.0.1:0", "127.0.0.1:\(added)"], stripSecret: false))
        #expect(ReloadFixture.waitForReload(serve, generation: 2) != nil, "\(serve.output.suffix(5))")
        #expect(serve.logLines.contains {
            $0["msg"] as? String == "listening" && $0["address"] as? String == "127.0.0.1:\(added)"
        })
        // Every worker accepts on the new port: several connections in a row all get answers.
        for index in 0..<6 {
            let client = try TestHTTPClient(port: added)
            #expect(ReloadFixture.post(client, "/added/\(index)")?.status == 200)
        }
        // The unchanged listener kept its port and its connections.
        #expect(ReloadFixture.post(kept, "/kept")?.status == 200)
        #expect(ReloadFixture.post(try TestHTTPClient(port: first), "/first")?.status == 200)

        // Remove the first listener: its port refuses, the connection it accepted earlier still works.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(
            fixture, listeners: ["127.0.0.1:\(added)"], stripSecret: false))
        #expect(ReloadFixture.waitForReload(serve, generation: 3) != nil, "\(serve.output.suffix(5))")
        #expect(serve.logLines.contains {
            $0["msg"] as? String == "stopped listening" && $0["address"] as? String == "127.0.0.1:\(first)"
        })
        #expect(throws: (any Error).self, "the removed listener refuses") { try TestHTTPClient(port: first) }
        #expect(ReloadFixture.post(kept, "/kept-after-removal")?.status == 200)
        #expect(ReloadFixture.post(try TestHTTPClient(port: added), "/added-after-removal")?.status == 200)
        serve.expectCleanStop()
    }

    @Test func aListenerThatCannotBeBoundRefusesTheWholeReload() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false))
        defer { serve.kill() }
        // A port some other socket listens on without SO_REUSEPORT: partgate cannot share it.
        let holder = try RawServer { _ in }
        defer { holder.stop() }
        let extra = try ReloadFixture.freePort()
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(
            fixture, listeners: ["127.0.0.1:0", "127.0.0.1:\(extra)", "127.0.0.1:\(holder.port)"], stripSecret: true))
        let refused = try #require(serve.waitForLog("configuration reload refused", timeout: 20))
        #expect((refused["error"] as? String ?? "").contains("127.0.0.1:\(holder.port)"), "\(refused)")
        // Nothing changed: the listener bound before the failure was closed again, the old rules apply.
        #expect(throws: (any Error).self) { try TestHTTPClient(port: extra) }
        let client = try TestHTTPClient(port: ports[0])
        #expect(ReloadFixture.post(client, "/same").map(ReloadFixture.partNames) == ["keep", "secret", "data"])
        serve.expectCleanStop()
    }
}
