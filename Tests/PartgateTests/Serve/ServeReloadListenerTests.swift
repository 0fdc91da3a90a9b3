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

    /// The admin listener is a listener like the others: a reload adds, moves and removes it, an address
    /// that cannot be bound refuses the reload (the old admin listener keeps answering), and an unchanged
    /// `admin:` keeps its socket.
    @Test func theAdminListenerIsAddedMovedAndRemovedByReloads() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ReloadFixture.config(fixture, stripSecret: false))
        defer { serve.kill() }
        func adminListening(_ host: String) -> UInt16? {
            let line = serve.waitForLogLine(timeout: 20) {
                $0["msg"] as? String == "listening" && $0["admin"] as? String == "true"
                    && ($0["address"] as? String ?? "").hasPrefix(host + ":")
            }
            return (line?["address"] as? String)?.split(separator: ":").last.flatMap { UInt16($0) }
        }

        // Added.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: false, admin: "127.0.0.1:0"))
        #expect(ReloadFixture.waitForReload(serve, generation: 2) != nil, "\(serve.output.suffix(5))")
        let first = try #require(adminListening("127.0.0.1"))
        #expect(try AdminClient(port: first).request("/readyz")?.status == 200)

        // Unchanged (another rule): the same socket answers, no new admin line.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: true, admin: "127.0.0.1:0"))
        #expect(ReloadFixture.waitForReload(serve, generation: 3) != nil, "\(serve.output.suffix(5))")
        #expect(serve.logLines.filter { $0["admin"] as? String == "true" }.count == 1)
        #expect(try AdminClient(port: first).request("/healthz")?.status == 200)

        // An address held by another socket: the reload is refused, the admin listener in effect answers.
        let holder = try RawServer { _ in }
        defer { holder.stop() }
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(
            fixture, stripSecret: false, admin: "127.0.0.1:\(holder.port)"))
        let refused = try #require(serve.waitForLog("configuration reload refused", timeout: 20))
        #expect((refused["error"] as? String ?? "").contains("admin listener"), "\(refused)")
        #expect(try AdminClient(port: first).request("/healthz")?.status == 200)
        let client = try TestHTTPClient(port: ports[0])
        #expect(ReloadFixture.post(client, "/still-stripping").map(ReloadFixture.partNames) == ["keep", "data"])

        // Moved to another loopback address: the new one answers, the old one refuses.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: false, admin: "127.0.0.2:0"))
        #expect(ReloadFixture.waitForReload(serve, generation: 4) != nil, "\(serve.output.suffix(5))")
        let moved = try #require(adminListening("127.0.0.2"))
        #expect(serve.logLines.contains {
            $0["msg"] as? String == "stopped listening" && $0["address"] as? String == "127.0.0.1:\(first)"
        })
        let probe = try TestHTTPClient(port: moved, host: "127.0.0.2", timeout: 10)
        probe.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n")
        #expect(probe.readResponse()?.status == 200)
        #expect(throws: (any Error).self, "the old admin address refuses") { try TestHTTPClient(port: first) }

        // Removed.
        try ReloadFixture.rewrite(fixture, serve, ReloadFixture.config(fixture, stripSecret: false))
        #expect(ReloadFixture.waitForReload(serve, generation: 5) != nil, "\(serve.output.suffix(5))")
        #expect(throws: (any Error).self, "no admin listener any more") {
            try TestHTTPClient(port: moved, host: "127.0.0.2")
        }
        serve.expectCleanStop()
    }
}
