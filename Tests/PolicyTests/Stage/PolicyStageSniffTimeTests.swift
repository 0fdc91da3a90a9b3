import Multipart
import Sniff
import Testing

@testable import Policy

/// Decisions that need the sniffed type: the part is held until its window is full or it ends.
@Suite("PolicyStage at sniff time")
struct PolicyStageSniffTimeTests {
    static let images = SniffRule(allow: Build.types("image/png", "image/jpeg", "image/webp"))

    static func avatarRule(_ sniff: SniffRule) -> Rule {
        Rule(name: "avatar-image", match: RuleMatch(field: Build.names("avatar"), hasFilename: true), sniff: sniff)
    }

    @Test func anAllowedTypePassesWithItsBytesIntact() throws {
        let small = FileFixtures.png()
        let large = FileFixtures.png(idatBytes: 6000)
        let body = FormBody([
            FormPart("avatar", filename: "a.png", type: "image/png", small),
            FormPart("avatar", filename: "b.png", type: "image/png", large),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(Self.images)]), body)
        #expect(run.rejection == nil && run.ended)
        #expect(run.parts.map(\.data) == [small, large])
        #expect(run.records.map(\.sniffedType) == ["image/png", "image/png"])
        #expect(run.records.map(\.digest) == [PolicyHarness.digest(small), PolicyHarness.digest(large)])
        // Whole-body parse: the small part is all held; of the large one at most the window is copied.
        #expect(run.copied >= small.count && run.copied < small.count + sniffWindowSize)
    }

    @Test func aTypeNotAllowedIsRefusedWith415() throws {
        let body = FormBody([FormPart("avatar", filename: "a.png", type: "image/png", FileFixtures.gif())])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(Self.images)]), body)
        #expect(run.rejection?.status == 415 && run.rejection?.reason == .typeNotAllowed)
        #expect(run.rejection?.rule == "avatar-image")
        #expect(run.rejection?.detail == "part 0 is image/gif, which is not allowed")
        #expect(run.parts.isEmpty, "nothing of a held part goes out")
    }

    @Test func onMismatchStripDropsTheHeldPartCleanly() throws {
        var sniff = Self.images
        sniff.onMismatch = .strip
        let exe = FileFixtures.pe(size: 5000)
        let body = FormBody([
            FormPart("avatar", filename: "a.png", exe), FormPart("avatar", filename: "b.png", FileFixtures.png()),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), body)
        #expect(run.rejection == nil)
        #expect(run.parts.map(\.head.filename) == ["b.png"])
        #expect(run.records[0].decision == .strip && run.records[0].sniffedType == "application/x-msdownload")
        #expect(run.records[0].receivedBytes == Int64(exe.count) && run.records[0].forwardedBytes == 0)
    }

    @Test func sniffedTypeMatchesRefuseExecutablesWhateverTheirName() throws {
        let rule = Rule(
            name: "no-executables",
            match: RuleMatch(sniffedType: Build.types("application/x-msdownload", "application/x-executable")),
            reject: .init(status: 415))
        let body = FormBody([
            FormPart("doc", filename: "notes.txt", text: "plain text"),
            FormPart("doc", filename: "cat.jpg", type: "image/jpeg", FileFixtures.pe()),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), body)
        #expect(run.rejection?.status == 415 && run.rejection?.rule == "no-executables")
        #expect(run.rejection?.partIndex == 1)
        #expect(run.parts.map(\.head.name) == ["doc"])
        #expect(run.records[0].decision == .pass && run.records[0].rule == "default")
    }

    @Test func extensionMustMatchRefusesAJPGThatIsAPE() throws {
        let sniff = SniffRule(extensionMustMatch: true)
        let body = FormBody([FormPart("avatar", filename: "holiday.jpg", type: "image/jpeg", FileFixtures.pe())])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), body)
        #expect(run.rejection?.reason == .extensionMismatch && run.rejection?.status == 415)
        #expect(run.rejection?.detail == "part 0 has '.jpg' but its content is application/x-msdownload")
        let fine = FormBody([FormPart("avatar", filename: "holiday.JPEG", type: "image/jpeg", FileFixtures.jpeg())])
        #expect(try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), fine).rejection == nil)
        let bare = FormBody([FormPart("avatar", filename: "holiday", type: "image/jpeg", FileFixtures.jpeg())])
        #expect(
            try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), bare).rejection?.detail
                == "part 0 has no extension but its content is image/jpeg")
    }

    @Test func setContentTypeForwardsTheSniffedType() throws {
        let sniff = SniffRule(setContentType: true)
        let body = FormBody([
            FormPart("avatar", filename: "a.png", type: "application/octet-stream", FileFixtures.png()),
            FormPart("avatar", filename: "b.jpg", FileFixtures.jpeg(scanBytes: 3000)),
            FormPart("avatar", filename: "c.txt", type: "text/plain; charset=utf-8", text: "hi"),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), body)
        #expect(run.parts.map(\.head.contentType) == ["image/png", "image/jpeg", "text/plain; charset=utf-8"])
        #expect(run.records.map(\.forwardedType) == ["image/png", "image/jpeg", "text/plain; charset=utf-8"])
    }

    @Test func aRuleBeforeTheSniffRuleStillDecidesAtHeadTime() throws {
        let strip = Rule(name: "strip-b", match: RuleMatch(field: Build.names("b")), strip: true)
        let sniffed = Rule(
            name: "pdf-only", match: RuleMatch(sniffedType: Build.types("application/pdf")), reject: .init())
        let body = FormBody([FormPart("b", FileFixtures.pdf()), FormPart("c", FileFixtures.pdf())])
        var stage = PolicyStage<NoPartDigest>(route: Build.route([strip, sniffed]))
        #expect(stage.partHead(PartHead(index: 0, name: "b")) == .none)
        _ = stage.partEnd()
        #expect(stage.rejection == nil)
        let run = try PolicyHarness.runEverySplit(Build.route([strip, sniffed]), body)
        #expect(run.rejection?.partIndex == 1 && run.rejection?.rule == "pdf-only")
        #expect(run.records.first?.decision == .strip)
    }

    @Test func aSniffRuleWhoseHeadConditionsFailHoldsNothing() throws {
        var stage = PolicyStage<NoPartDigest>(route: Build.route([Self.avatarRule(Self.images)]))
        let head = PartHead(index: 0, name: "comment")
        #expect(stage.partHead(head) == .writeHead(head))
    }

    @Test func aPartShorterThanTheWindowIsDecidedAtItsEnd() throws {
        var stage = PolicyStage<NoPartDigest>(route: Build.route([Self.avatarRule(Self.images)]))
        let head = PartHead(index: 0, name: "avatar", filename: "a.png", contentType: "image/png")
        #expect(stage.partHead(head) == .none)
        let png = FileFixtures.png()
        let half = png.count / 2
        #expect(Array(png[0..<half]).withUnsafeBytes { stage.partBody($0) } == .none)
        #expect(Array(png[half...]).withUnsafeBytes { stage.partBody($0) } == .none)
        #expect(stage.partEnd() == .release(head: head, held: png))
    }

    @Test func aFullWindowReleasesTheHeldBytesAndForwardsTheRestOfTheSpan() throws {
        var stage = PolicyStage<NoPartDigest>(route: Build.route([Self.avatarRule(Self.images)]))
        let head = PartHead(index: 0, name: "avatar", filename: "a.png", contentType: "image/png")
        #expect(stage.partHead(head) == .none)
        let png = FileFixtures.png(idatBytes: 4000)
        #expect(Array(png[0..<1000]).withUnsafeBytes { stage.partBody($0) } == .none)
        #expect(
            Array(png[1000..<3000]).withUnsafeBytes { stage.partBody($0) }
                == .release(head: head, held: Array(png[0..<1000]), forward: 0..<2000))
        #expect(Array(png[3000...]).withUnsafeBytes { stage.partBody($0) } == .forward(0..<(png.count - 3000)))
        #expect(stage.partEnd() == .endPart)
        #expect(stage.takeAuditRecords().map(\.decision) == [.pass])
    }

    @Test func anEmptyFileInputPassesTheSniffChecksButAnEmptyNamedFileDoesNot() throws {
        let sniff = SniffRule(allow: Build.types("image/png"), extensionMustMatch: true, validate: true)
        let empty = FormBody([FormPart("avatar", filename: "", type: "application/octet-stream", [])])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), empty)
        #expect(run.rejection == nil && run.parts.count == 1 && run.parts[0].data.isEmpty)
        let named = FormBody([FormPart("avatar", filename: "x.png", type: "image/png", [])])
        #expect(
            try PolicyHarness.runEverySplit(Build.route([Self.avatarRule(sniff)]), named).rejection?.reason
                == .typeNotAllowed)
    }
}
