import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// The policy stage through the engine: what the upstream receives, and what the client is answered.
@Suite("Proxy policy", .serialized)
struct ProxyPolicyTests {
    final class Audit: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private var items: [PartAuditRecord] = []
        func add(_ record: PartAuditRecord) { lock.lock(); items.append(record); lock.unlock() }
        var records: [PartAuditRecord] { lock.lock(); defer { lock.unlock() }; return items }
    }

    static func glob(_ text: String) -> [Glob] { [try! Glob(text, caseInsensitive: true)] }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 2000)
    static let pe: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 512)
        bytes[0] = 0x4D; bytes[1] = 0x5A; bytes[0x3C] = 0x80
        bytes[0x80] = 0x50; bytes[0x81] = 0x45
        return bytes
    }()

    static func avatarRoute(reportOnly: Bool = false, audit: Bool = true) throws -> RouteConfiguration {
        RouteConfiguration(
            name: "avatars", upstream: "echo", reportOnly: reportOnly, audit: audit, defaultAction: .strip,
            rules: [
                Rule(name: "drop-internal", match: RuleMatch(field: glob("internal_*")), strip: true),
                Rule(name: "title", match: RuleMatch(field: glob("title"), hasFilename: false), maxBytes: 64),
                Rule(name: "avatar-image", match: RuleMatch(field: glob("avatar"), hasFilename: true),
                     rename: Rule.Rename(filename: try NameTemplate("{uuid}{ext}")),
                     sniff: SniffRule(allow: glob("image/png"), setContentType: true, extensionMustMatch: true)),
            ])
    }

    static func send(_ harness: ProxyHarness, _ parts: [(name: String, filename: String?, type: String?, data: [UInt8])]) throws -> TestHTTPClient.Response? {
        let client = try TestHTTPClient(port: harness.port)
        client.send(ProxyHarness.request(ProxyHarness.multipart("b0undary", parts), boundary: "b0undary"))
        return client.readResponse()
    }

    @Test func allowListStripsRenamesAndRetypes() throws {
        let audit = Audit()
        let harness = try ProxyHarness(route: try Self.avatarRoute(), events: EngineEvents(onAudit: { record, _, _ in audit.add(record) }))
        defer { harness.shutdown() }
        let response = try Self.send(harness, [
            (name: "internal_token", filename: nil, type: nil, data: Array("secret".utf8)),
            (name: "title", filename: nil, type: nil, data: Array("holiday".utf8)),
            (name: "avatar", filename: "../../me.png", type: "application/octet-stream", data: Self.png),
            (name: "other", filename: nil, type: nil, data: Array("unlisted".utf8)),
        ])
        #expect(response?.status == 200)
        let record = try #require(harness.recorder.records.first)
        #expect(record.parts.map(\.name) == ["title", "avatar"])
        let avatar = try #require(record.parts.last)
        #expect(avatar.filename?.hasSuffix(".png") == true)
        #expect(avatar.filename?.contains("/") == false && avatar.filename?.contains("me") == false)
        #expect(avatar.contentType == "image/png")
        #expect(avatar.size == Int64(Self.png.count))
        let records = audit.records
        #expect(records.map(\.decision) == [.strip, .pass, .pass, .strip])
        #expect(records[0].rule == "drop-internal")
        #expect(records[2].forwardedFilename == avatar.filename)
        #expect(records[2].digest?.hexString == avatar.sha256)
        #expect(records[3].rule == "default")
    }

    @Test func executableDisguisedAsImageIsRefused() throws {
        let harness = try ProxyHarness(route: try Self.avatarRoute())
        defer { harness.shutdown() }
        let response = try Self.send(harness, [(name: "avatar", filename: "me.jpg", type: "image/jpeg", data: Self.pe)])
        #expect(response?.status == 415)
        #expect(response?.json?["flag"] as? String == "avatar-image")
        #expect(response?.json?["part"] as? Int == 0)
        #expect(harness.recorder.records.isEmpty)
    }

    @Test func sizeCapIs413NamingTheRule() throws {
        let harness = try ProxyHarness(route: try Self.avatarRoute())
        defer { harness.shutdown() }
        let response = try Self.send(harness, [(name: "title", filename: nil, type: nil, data: [UInt8](repeating: 0x61, count: 100))])
        #expect(response?.status == 413)
        #expect(response?.json?["flag"] as? String == "title")
        #expect(harness.recorder.records.isEmpty)
    }

    @Test func rejectRuleUsesItsStatus() throws {
        let route = RouteConfiguration(name: "r", upstream: "echo", rules: [
            Rule(name: "no-scripts", match: RuleMatch(filename: Self.glob("*.php")), reject: Rule.Reject(status: 422)),
        ])
        let harness = try ProxyHarness(route: route)
        defer { harness.shutdown() }
        let response = try Self.send(harness, [(name: "f", filename: "shell.php", type: nil, data: Array("<?php".utf8))])
        #expect(response?.status == 422)
        #expect(response?.json?["flag"] as? String == "no-scripts")
    }

    @Test func reportOnlyForwardsWhatANoRuleRouteForwards() throws {
        let parts: [(name: String, filename: String?, type: String?, data: [UInt8])] = [
            (name: "internal_token", filename: nil, type: nil, data: Array("secret".utf8)),
            (name: "avatar", filename: "me.jpg", type: "image/jpeg", data: Self.pe),
        ]
        let audit = Audit()
        let reporting = try ProxyHarness(route: try Self.avatarRoute(reportOnly: true),
                                         events: EngineEvents(onAudit: { record, _, _ in audit.add(record) }))
        #expect(try Self.send(reporting, parts)?.status == 200)
        let forwarded = reporting.recorder.records.first?.parts
        reporting.shutdown()
        let plain = try ProxyHarness()
        #expect(try Self.send(plain, parts)?.status == 200)
        let baseline = plain.recorder.records.first?.parts
        plain.shutdown()
        #expect(forwarded != nil && forwarded == baseline)
        let records = audit.records
        #expect(records.count == 2 && records.allSatisfy(\.reportOnly))
        #expect(records[0].decisionText == "strip (report-only)")
        #expect(records[1].decision == .reject)
    }

    @Test func otherBodiesOnARouteWithRulesAre415() throws {
        let harness = try ProxyHarness(route: try Self.avatarRoute())
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port)
        client.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        let response = client.readResponse()
        #expect(response?.status == 415)
        #expect(response?.json?["flag"] as? String == "other_body")
        #expect(harness.recorder.records.isEmpty)
    }
}
