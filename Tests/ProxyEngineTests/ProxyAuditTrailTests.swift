import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// What the logs hear of a request: audit records per part (report-only routes always), and for a refusal the
/// request it refused and the part the parser refused.
@Suite("Proxy audit trail", .serialized)
struct ProxyAuditTrailTests {
    final class Events: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var audits: [(record: PartAuditRecord, route: String, request: String)] = []
        private var refusals: [RefusalEvent] = []
        private var accesses: [(method: String, target: String, status: Int, route: String)] = []

        var engineEvents: EngineEvents {
            EngineEvents(
                onAccess: { method, target, status, route in
                    self.locked { self.accesses.append((method, target, status, route)) }
                },
                onProblem: { refusal in self.locked { self.refusals.append(refusal) } },
                onAudit: { record, route, request in self.locked { self.audits.append((record, route, request)) } })
        }

        private func locked(_ body: () -> Void) { lock.lock(); body(); lock.unlock() }
        var auditRecords: [(record: PartAuditRecord, route: String, request: String)] {
            lock.lock(); defer { lock.unlock() }; return audits
        }
        var refused: [RefusalEvent] { lock.lock(); defer { lock.unlock() }; return refusals }
        var accessed: [(method: String, target: String, status: Int, route: String)] {
            lock.lock(); defer { lock.unlock() }; return accesses
        }
    }

    static func send(_ harness: ProxyHarness, _ parts: [(name: String, filename: String?, type: String?, data: [UInt8])])
        throws -> TestHTTPClient.Response?
    {
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(ProxyHarness.multipart("b0undary", parts), boundary: "b0undary"))
        return client.readResponse()
    }

    /// A report-only route logs what would have happened without `audit: true` (DESIGN.md, Policy).
    @Test func aReportOnlyRouteLogsItsWouldBeDecisionsWithoutAudit() throws {
        let events = Events()
        let route = RouteConfiguration(
            name: "observe", upstream: "echo", reportOnly: true, audit: false, defaultAction: .strip)
        let harness = try ProxyHarness(route: route, events: events.engineEvents)
        defer { harness.shutdown() }
        let response = try Self.send(harness, [(name: "a", filename: nil, type: nil, data: Array("1".utf8))])
        #expect(response?.status == 200)
        #expect(harness.recorder.records.first?.parts.map(\.name) == ["a"], "forwarded as if every part passed")
        let audits = events.auditRecords
        #expect(audits.map(\.record.decisionText) == ["strip (report-only)"])
        #expect(audits.first?.route == "observe")
        #expect(audits.first?.record.digest?.isEmpty != false, "no SHA-256 without audit: true")
    }

    /// A report-only route whose enforcing twin refuses `%22` in a filename at the parser forwards it sanitised.
    @Test func aReportOnlyRouteForwardsAFilenameItsPolicyRefusesSanitised() throws {
        let events = Events()
        let route = RouteConfiguration(
            name: "observe", upstream: "echo", reportOnly: true, unsafeFilenames: .reject)
        let harness = try ProxyHarness(route: route, events: events.engineEvents)
        defer { harness.shutdown() }
        let response = try Self.send(
            harness, [(name: "doc", filename: "my %22quoted%22.txt", type: nil, data: Array("x".utf8))])
        #expect(response?.status == 200)
        #expect(harness.recorder.records.first?.parts.first?.filename == "my _22quoted_22.txt")
        let record = try #require(events.auditRecords.first?.record)
        #expect(record.decisionText == "reject (report-only)" && record.rule == "unsafe_filename")
        #expect(events.refused.isEmpty)
    }

    /// A refusal by the parser: the refused part has an audit record, the refusal names the request, route,
    /// method, target and part, and the answer has its access line.
    @Test func aParserRefusalTiesTheRefusedPartToTheRequest() throws {
        let events = Events()
        var limits = RequestLimits()
        limits.fieldBytes = 10
        let route = RouteConfiguration(name: "audited", upstream: "echo", audit: true, limits: limits)
        let harness = try ProxyHarness(route: route, events: events.engineEvents)
        defer { harness.shutdown() }
        let response = try Self.send(harness, [
            (name: "short", filename: nil, type: nil, data: Array("ok".utf8)),
            (name: "long", filename: nil, type: nil, data: [UInt8](repeating: 0x61, count: 50)),
        ])
        #expect(response?.status == 413)
        #expect(response?.json?["flag"] as? String == "limit_field_bytes")
        let audits = events.auditRecords
        #expect(audits.map(\.record.decision) == [.pass, .reject])
        #expect(audits.last?.record.rule == "limit_field_bytes" && audits.last?.record.name == "long")
        let refusal = try #require(events.refused.first)
        #expect(refusal.status == 413 && refusal.flag == "limit_field_bytes" && refusal.part == 1)
        #expect(refusal.route == "audited" && refusal.method == "POST" && refusal.target == "/upload")
        #expect(refusal.request != nil && refusal.request == audits.last?.request)
        let access = events.accessed
        #expect(access.count == 1 && access.first?.status == 413 && access.first?.route == "audited")
    }

    /// A head that was not read whole has no request to name: the refusal and its access line say "-".
    @Test func aMalformedHeadIsRefusedWithItsAccessLine() throws {
        let events = Events()
        let harness = try ProxyHarness(events: events.engineEvents)
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n")
        #expect(client.readResponse()?.status == 400)
        let refusal = try #require(events.refused.first)
        #expect(refusal.request == nil && refusal.route == nil && refusal.method == nil)
        #expect(events.accessed.map(\.method) == ["-"] && events.accessed.map(\.status) == [400])
    }
}
