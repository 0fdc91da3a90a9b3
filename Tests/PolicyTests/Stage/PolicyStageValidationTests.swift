import Multipart
import Sniff
import Testing

@testable import Policy

/// `sniff.validate` through the stage: polyglots fail, at the part's end or as soon as the walker knows.
@Suite("PolicyStage validation")
struct PolicyStageValidationTests {
    static func rule(_ onMismatch: SniffRule.MismatchAction = .reject) -> Rule {
        Rule(
            name: "images", match: RuleMatch(hasFilename: true),
            sniff: SniffRule(
                allow: Build.types("image/*", "application/pdf"), onMismatch: onMismatch, validate: true))
    }

    static let polyglots: [(String, [UInt8])] = [
        ("gif + script", FileFixtures.gif() + FileFixtures.script),
        ("gif header + script", FileFixtures.ascii("GIF89a") + FileFixtures.script),
        ("png + zip", FileFixtures.png() + FileFixtures.zip),
        ("large png + zip", FileFixtures.png(idatBytes: 4000) + FileFixtures.zip),
        ("jpeg + php", FileFixtures.jpeg() + FileFixtures.php),
        ("large jpeg + php", FileFixtures.jpeg(scanBytes: 5000) + FileFixtures.php),
        ("webp + script", FileFixtures.webp() + FileFixtures.script),
        ("pdf + zip", FileFixtures.pdf() + FileFixtures.zip),
        ("large pdf + zip", FileFixtures.pdf(padding: 4000) + FileFixtures.zip),
    ]

    @Test(arguments: polyglots.map(\.0))
    func polyglotsAreRefused(name: String) throws {
        let bytes = Self.polyglots.first { $0.0 == name }!.1
        let body = FormBody([FormPart("note", text: "first"), FormPart("upload", filename: "x.img", bytes)])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.rule()]), body)
        #expect(run.rejection?.status == 415 && run.rejection?.reason == .invalidStructure, "\(name)")
        #expect(run.rejection?.rule == "images" && run.rejection?.partIndex == 1)
        #expect(!run.ended)
        #expect(run.records.last?.decision == .reject)
    }

    @Test(arguments: ["png", "jpeg", "gif", "webp", "pdf", "large png", "large jpeg", "large pdf"])
    func wellFormedFilesPass(name: String) throws {
        let bytes: [UInt8]
        switch name {
        case "png": bytes = FileFixtures.png()
        case "jpeg": bytes = FileFixtures.jpeg()
        case "gif": bytes = FileFixtures.gif()
        case "webp": bytes = FileFixtures.webp()
        case "pdf": bytes = FileFixtures.pdf()
        case "large png": bytes = FileFixtures.png(idatBytes: 4000)
        case "large jpeg": bytes = FileFixtures.jpeg(scanBytes: 5000)
        default: bytes = FileFixtures.pdf(padding: 4000)
        }
        let run = try PolicyHarness.runEverySplit(
            Build.route([Self.rule()]), FormBody([FormPart("u", filename: "f", bytes)]))
        #expect(run.rejection == nil && run.ended)
        #expect(run.parts[0].data == bytes)
    }

    @Test func aHeldPolyglotIsStrippedUnderOnMismatchStrip() throws {
        let body = FormBody([
            FormPart("upload", filename: "a.gif", FileFixtures.gif() + FileFixtures.script),
            FormPart("upload", filename: "b.gif", FileFixtures.gif()),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.rule(.strip)]), body)
        #expect(run.rejection == nil)
        #expect(run.parts.map(\.head.filename) == ["b.gif"])
        #expect(
            run.records[0].decision == .strip
                && run.records[0].detail == "invalid structure: data after the GIF trailer")
    }

    @Test func aStreamedPolyglotCannotBeStrippedAnymore() throws {
        let bytes = FileFixtures.png(idatBytes: 4000) + FileFixtures.zip
        let run = try PolicyHarness.runEverySplit(
            Build.route([Self.rule(.strip)]), FormBody([FormPart("upload", filename: "a.png", bytes)]))
        #expect(run.rejection?.reason == .invalidStructure)
        #expect(run.rejection?.detail.contains("on_mismatch: strip cannot take them back") == true)
    }

    @Test func aStreamedPolyglotIsRefusedAtTheFirstByteTheWalkerRefuses() {
        var stage = PolicyStage<NoPartDigest>(route: Build.route([Self.rule()]))
        let head = PartHead(index: 0, name: "upload", filename: "a.png")
        let png = FileFixtures.png(idatBytes: 4000)
        #expect(stage.partHead(head) == .none)
        guard case .release = png.withUnsafeBytes({ stage.partBody($0) }) else {
            Issue.record("a full window was not released")
            return
        }
        guard case .reject(let rejection) = FileFixtures.zip.withUnsafeBytes({ stage.partBody($0) }) else {
            Issue.record("bytes after IEND were forwarded")
            return
        }
        #expect(rejection.detail == "part 0 is not a well-formed file of its type: data after the IEND chunk")
    }

    @Test func typesWithoutAWalkerAreNotValidated() throws {
        let rule = Rule(name: "any", sniff: SniffRule(validate: true))
        let zip = FileFixtures.zip + FileFixtures.script
        let run = try PolicyHarness.runEverySplit(
            Build.route([rule]), FormBody([FormPart("z", filename: "a.zip", zip)]))
        #expect(run.rejection == nil && run.parts[0].data == zip)
    }

    @Test func aTruncatedImageFailsValidation() throws {
        let rule = Rule(
            name: "images", sniff: SniffRule(allow: Build.types("image/png"), validate: true), maxBytes: 100,
            onExceed: .truncate)
        let run = try PolicyHarness.runEverySplit(
            Build.route([rule]), FormBody([FormPart("p", FileFixtures.png(idatBytes: 500))]))
        #expect(run.rejection?.reason == .invalidStructure, "validation sees what is forwarded")
    }
}
