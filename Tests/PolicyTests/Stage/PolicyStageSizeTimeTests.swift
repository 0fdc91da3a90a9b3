import Multipart
import Sniff
import Testing

@testable import Policy

/// `max_bytes` with each `on_exceed`, for streamed and held parts.
@Suite("PolicyStage at size time")
struct PolicyStageSizeTimeTests {
    static func capped(_ bytes: Int64, _ action: Rule.ExceedAction, sniff: SniffRule? = nil) -> Rule {
        Rule(name: "cap", match: RuleMatch(field: Build.names("file")), sniff: sniff, maxBytes: bytes, onExceed: action)
    }

    static let big = FileFixtures.filler(5000)

    @Test func rejectRefusesWith413AtTheFirstByteTooMany() throws {
        let body = FormBody([FormPart("file", filename: "a.bin", Self.big), FormPart("after", text: "x")])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.capped(3000, .reject)]), body)
        #expect(
            run.rejection
                == PolicyRejection(
                    status: 413, reason: .tooLarge, rule: "cap", partIndex: 0,
                    detail: "part 0 is larger than 3000 bytes (max_bytes)"))
        var stage = PolicyStage<NoPartDigest>(route: Build.route([Self.capped(10, .reject)]))
        #expect(stage.partHead(PartHead(index: 0, name: "file")) == .writeHead(PartHead(index: 0, name: "file")))
        #expect(Array(Self.big[0..<10]).withUnsafeBytes { stage.partBody($0) } == .forward(0..<10))
        guard case .reject = Array(Self.big[10..<11]).withUnsafeBytes({ stage.partBody($0) }) else {
            Issue.record("the 11th byte was accepted")
            return
        }
        #expect(stage.partEnd() == .none, "after a rejection every event is ignored")
    }

    @Test func aPartOfExactlyMaxBytesPasses() throws {
        let body = FormBody([FormPart("file", Array(Self.big[0..<3000]))])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.capped(3000, .reject)]), body)
        #expect(run.rejection == nil && run.parts[0].data.count == 3000)
    }

    @Test(arguments: [10, 1444, 1445, 1446, 3000])
    func truncateForwardsTheFirstMaxBytes(cap: Int) throws {
        let body = FormBody([FormPart("file", filename: "a.bin", Self.big), FormPart("after", text: "x")])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.capped(Int64(cap), .truncate)]), body)
        #expect(run.rejection == nil && run.ended)
        #expect(run.parts[0].data == Array(Self.big[0..<cap]))
        #expect(run.parts[1].data == Array("x".utf8))
        let record = run.records[0]
        #expect(record.decision == .truncate && record.rule == "cap")
        #expect(record.receivedBytes == 5000 && record.forwardedBytes == Int64(cap))
        #expect(record.digest == PolicyHarness.digest(Array(Self.big[0..<cap])))
        #expect(record.detail == "truncated to \(cap) of 5000 bytes (max_bytes)")
    }

    @Test func truncateOfAHeldPartReleasesOnlyMaxBytes() throws {
        let png = FileFixtures.png(idatBytes: 3000)
        let rule = Self.capped(100, .truncate, sniff: SniffRule(allow: Build.types("image/png")))
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), FormBody([FormPart("file", png)]))
        #expect(run.parts[0].data == Array(png[0..<100]))
        #expect(run.records[0].decision == .truncate)
    }

    @Test(arguments: [10, 1000, 1444])
    func stripBelowTheWindowIsDecidedWhileHeld(cap: Int) throws {
        let body = FormBody([
            FormPart("file", filename: "big.bin", Self.big),
            FormPart("file", filename: "small.bin", Array(Self.big[0..<cap])),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.capped(Int64(cap), .strip)]), body)
        #expect(run.rejection == nil)
        #expect(run.parts.map(\.head.filename) == ["small.bin"])
        #expect(run.parts[0].data.count == cap)
        #expect(run.records[0].decision == .strip && run.records[0].rule == "cap")
        #expect(run.records[0].receivedBytes == 5000 && run.records[0].forwardedBytes == 0)
    }

    @Test func stripAfterBytesWentUpstreamRefusesInstead() throws {
        let body = FormBody([FormPart("file", filename: "big.bin", Self.big)])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.capped(2000, .strip)]), body)
        #expect(run.rejection?.status == 413 && run.rejection?.rule == "cap")
        #expect(run.rejection?.detail.contains("on_exceed: strip cannot take them back") == true)
    }

    @Test func stripOfASniffedPartBeyondItsWindowDropsItWhenDecided() throws {
        let rule = Self.capped(1000, .strip, sniff: SniffRule(allow: Build.types("*")))
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), FormBody([FormPart("file", Self.big)]))
        #expect(run.rejection == nil && run.parts.isEmpty)
    }

    @Test func theSmallestCapOfTheMatchingRulesApplies() throws {
        let loose = Rule(name: "loose", maxBytes: 4000, onExceed: .reject)
        let tight = Rule(name: "tight", match: RuleMatch(field: Build.names("file")), maxBytes: 20, onExceed: .truncate)
        let also = Rule(name: "same", maxBytes: 20, onExceed: .reject)
        let run = try PolicyHarness.runEverySplit(
            Build.route([loose, tight, also]), FormBody([FormPart("file", Self.big), FormPart("other", text: "ok")]))
        #expect(run.parts[0].data.count == 20, "the tie goes to the earlier rule")
        #expect(run.records[0].rule == "tight")
    }
}
