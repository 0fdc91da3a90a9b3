import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// A keep-alive connection keeps its last exchange's rewriter and field buffers for the next request while it is
/// busy, and lets go of them once it has been idle for `idleTrimDelay`.
@Suite("Proxy idle trim", .serialized)
struct ProxyIdleTrimTests {
    static func form(_ boundary: String, _ value: String) -> [UInt8] {
        ProxyHarness.request(
            ProxyHarness.multipart(boundary, [
                (name: "note", filename: nil, type: nil, data: Array(value.utf8)),
                (name: "file", filename: "f.txt", type: "text/plain", data: Array(repeating: 0x61, count: 700)),
            ]), boundary: boundary)
    }

    /// Polls `condition` every 20 ms for up to `limit`.
    static func eventually(_ limit: Duration, _ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test func aConnectionBetweenRequestsKeepsItsSpares() throws {
        let harness = try ProxyHarness { $0.idleTrimDelay = .seconds(60) }
        defer { harness.shutdown() }
        #expect(harness.proxy.connectionsHoldingSpares() == 0)
        let client = try TestHTTPClient(port: harness.port)
        client.send(Self.form("keep-b", "first"))
        #expect(client.readResponse()?.status == 200)
        #expect(harness.proxy.connectionsHoldingSpares() == 1)
    }

    @Test func anIdleConnectionDropsItsSparesAndServesOnAfterwards() throws {
        let harness = try ProxyHarness { $0.idleTrimDelay = .milliseconds(100) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send(Self.form("trim-b", "first"))
        #expect(client.readResponse()?.status == 200)
        #expect(Self.eventually(.seconds(10)) { harness.proxy.connectionsHoldingSpares() == 0 })
        // The connection is still open: its next multipart request is rewritten from new buffers.
        client.send(Self.form("after-trim-b", "second"))
        #expect(client.readResponse()?.status == 200)
        let records = harness.recorder.records
        try #require(records.count == 2)
        #expect(records.map { $0.parts.map(\.name) } == [["note", "file"], ["note", "file"]])
        #expect(records.map { $0.parts.map(\.size) } == [[5, 700], [6, 700]])
        #expect(records.allSatisfy { $0.error == nil && $0.boundary?.hasPrefix("partgate-") == true })
        #expect(harness.proxy.connectionsHoldingSpares() == 1)
        #expect(Self.eventually(.seconds(10)) { harness.proxy.connectionsHoldingSpares() == 0 })
    }

    /// Requests 50 ms apart for 1.5 s against a 1 s delay: each ending exchange moves the trim on, so the spares
    /// stay (and are reused) throughout.
    @Test func aBusyConnectionKeepsItsSpares() throws {
        let harness = try ProxyHarness { $0.idleTrimDelay = .seconds(1) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        for index in 0..<30 {
            client.send(Self.form("busy-\(index)", "value \(index)"))
            #expect(client.readResponse()?.status == 200)
            #expect(harness.proxy.connectionsHoldingSpares() == 1, "after request \(index)")
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(harness.recorder.records.count == 30)
    }

    /// A head that is half received when the trim comes due is not an idle connection: the request completes.
    @Test func aPartialHeadIsNotTrimmedAway() throws {
        let harness = try ProxyHarness { $0.idleTrimDelay = .milliseconds(100) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send(Self.form("one-b", "first"))
        #expect(client.readResponse()?.status == 200)
        let request = Self.form("two-b", "second")
        client.send(Array(request[..<30]))
        Thread.sleep(forTimeInterval: 0.4)
        client.send(Array(request[30...]))
        #expect(client.readResponse()?.status == 200)
        #expect(harness.recorder.records.count == 2)
        #expect(harness.recorder.records.last?.parts.map(\.size) == [6, 700])
    }
}
