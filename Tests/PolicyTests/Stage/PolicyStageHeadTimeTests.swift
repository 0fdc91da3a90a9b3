import Multipart
import Sniff
import Testing

@testable import Policy

/// Decisions taken from the part head alone: the head is written at once, nothing is held.
@Suite("PolicyStage at head time")
struct PolicyStageHeadTimeTests {
    static let photo = FormPart("photo", filename: "me.png", type: "image/png", FileFixtures.png())
    static let note = FormPart("note", text: "hello")

    @Test func aRouteWithoutRulesForwardsEveryPartWithoutItsOtherHeaders() throws {
        var tagged = Self.note
        tagged.headers = [("X-Trace", "1"), ("Content-Language", "de")]
        let body = FormBody([tagged, Self.photo])
        let run = try PolicyHarness.runEverySplit(Build.route(), body)
        #expect(run.rejection == nil && run.ended)
        #expect(run.parts.map(\.head.name) == ["note", "photo"])
        #expect(run.parts[0].head.headers.isEmpty)
        #expect(run.parts[0].data == Array("hello".utf8) && run.parts[0].ended)
        #expect(run.parts[1].head.filename == "me.png" && run.parts[1].head.contentType == "image/png")
        #expect(run.parts[1].data == FileFixtures.png())
        #expect(run.copied == 0, "a streamed part's bytes are forwarded from the input span")
        #expect(run.records.map(\.decision) == [.pass, .pass])
        #expect(run.records.map(\.rule) == ["default", "default"])
        #expect(run.records[1].sniffedType == "image/png")
        #expect(run.records[1].digest == PolicyHarness.digest(FileFixtures.png()))
        #expect(run.records[1].receivedBytes == Int64(FileFixtures.png().count))
        #expect(run.records[1].forwardedBytes == run.records[1].receivedBytes)
    }

    @Test func withoutAuditDetailRecordsNameOnlyTheTypesARuleSniffed() throws {
        let body = FormBody([Self.note, Self.photo])
        let plain = try PolicyHarness.run(Build.route(), body.bytes, auditDetail: false)
        #expect(plain.records.map(\.decision) == [.pass, .pass])
        #expect(plain.records.map(\.sniffedType) == [nil, nil], "no rule sniffed, so no sniff for the record")
        #expect(plain.parts.map(\.data) == [Array("hello".utf8), FileFixtures.png()])
        let sniffing = Rule(name: "images", match: RuleMatch(sniffedType: Build.types("image/png")))
        let sniffed = try PolicyHarness.run(Build.route([sniffing]), body.bytes, auditDetail: false)
        #expect(sniffed.records[1].sniffedType == "image/png", "a rule sniffed it: the record keeps it")
        #expect(try PolicyHarness.run(Build.route(), body.bytes).records[1].sniffedType == "image/png")
    }

    @Test func stripDropsThePartEntirely() throws {
        let rule = Rule(name: "drop-internal", match: RuleMatch(field: Build.names("internal_*")), strip: true)
        let body = FormBody([Self.note, FormPart("internal_id", text: "42"), Self.photo])
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), body)
        #expect(run.parts.map(\.head.name) == ["note", "photo"])
        #expect(run.records.map(\.decision) == [.pass, .strip, .pass])
        let stripped = run.records[1]
        #expect(stripped.rule == "drop-internal" && stripped.forwardedName == nil && stripped.digest == nil)
        #expect(stripped.receivedBytes == 2 && stripped.forwardedBytes == 0)
    }

    @Test(arguments: [403, 400, 422])
    func rejectRefusesWithTheRuleStatus(status: Int) throws {
        let rule = Rule(
            name: "no-php", match: RuleMatch(extension: Build.types("php", "phtml")), reject: .init(status: status))
        let body = FormBody([Self.note, FormPart("f", filename: "shell.PHP", text: "<?php")])
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), body)
        #expect(
            run.rejection
                == PolicyRejection(
                    status: status, reason: .rule, rule: "no-php", partIndex: 1,
                    detail: "part 1 ('f') is refused by rule 'no-php'"))
        #expect(!run.ended)
        #expect(run.parts.map(\.head.name) == ["note"])
        #expect(run.records.map(\.decision) == [.pass, .reject])
    }

    @Test func defaultActionAppliesToPartsNoRuleMatched() throws {
        let allow = Rule(name: "allow-avatar", match: RuleMatch(field: Build.names("avatar"), hasFilename: true))
        let body = FormBody([FormPart("avatar", filename: "a.png", FileFixtures.png()), Self.note])
        let passed = try PolicyHarness.runEverySplit(Build.route([allow], default: .pass), body)
        #expect(passed.parts.count == 2)
        let stripped = try PolicyHarness.runEverySplit(Build.route([allow], default: .strip), body)
        #expect(stripped.parts.map(\.head.name) == ["avatar"])
        #expect(stripped.records.map(\.rule) == ["allow-avatar", "default"])
        #expect(stripped.records[1].detail == "no rule matched (default: strip)")
        let refused = try PolicyHarness.runEverySplit(Build.route([allow], default: .reject), body)
        #expect(refused.rejection?.status == 403 && refused.rejection?.reason == .defaultAction)
        #expect(refused.rejection?.rule == "default" && refused.rejection?.partIndex == 1)
    }

    @Test func matchConditionsAllHaveToHold() throws {
        let match = RuleMatch(
            field: Build.names("up*"), filename: Build.names("*.jpg", "*.png"), hasFilename: true,
            declaredType: Build.types("image/*"), extension: Build.types("PNG"))
        let rule = Rule(name: "mark", match: match, setHeaders: [.init(name: "X-Seen", value: "yes")])
        let parts = [
            FormPart("upload", filename: "a.png", type: "image/png", FileFixtures.png()),  // all hold
            FormPart("upload", filename: "a.jpg", type: "image/png", FileFixtures.png()),  // extension
            FormPart("avatar", filename: "a.png", type: "image/png", FileFixtures.png()),  // field
            FormPart("upload", filename: "a.png", type: "text/plain", FileFixtures.png()),  // declared type
            FormPart("upload", text: "x"),  // no filename
            FormPart("upload", filename: "A.PNG", type: "Image/PNG", FileFixtures.png()),  // case-insensitive types
        ]
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), FormBody(parts))
        #expect(run.parts.map { !$0.head.headers.isEmpty } == [true, false, false, false, false, false])
        #expect(run.records.map(\.matchedRules) == [["mark"], [], [], [], [], []])
        // `filename` globs are case-sensitive: *.png does not match A.PNG.
        let caseRule = Rule(name: "mark", match: RuleMatch(extension: Build.types("png")), strip: true)
        let byExtension = try PolicyHarness.runEverySplit(Build.route([caseRule]), FormBody([parts[5]]))
        #expect(byExtension.parts.isEmpty)
    }

    @Test func aMissingContentTypeIsDeclaredTextPlain() throws {
        let rule = Rule(name: "text", match: RuleMatch(declaredType: Build.types("text/plain")), strip: true)
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), FormBody([Self.note]))
        #expect(run.parts.isEmpty)
    }

    @Test func renameRendersTemplatesFromTheSanitisedOriginal() throws {
        let rule = Rule(
            name: "rename", match: RuleMatch(hasFilename: true),
            rename: .init(field: Build.template("file_{index}"), filename: Build.template("{uuid}{ext}")))
        let second = Rule(
            name: "also", match: RuleMatch(field: Build.names("doc")),
            rename: .init(filename: Build.template("{field}-{stem}.{index}{ext}")))
        let body = FormBody([
            FormPart("photo", filename: "../../Holiday.JPG", type: "image/jpeg", FileFixtures.jpeg()),
            FormPart("doc", filename: "Report Ünïcode.tar.gz", text: "x"),
            FormPart("empty", filename: "", text: ""),
            Self.note,
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([rule, second]), body)
        #expect(run.parts.map(\.head.name) == ["file_0", "file_1", "file_2", "note"])
        #expect(run.parts[0].head.filename == "uuid-1.jpg")
        #expect(run.parts[1].head.filename == "doc-Report Ünïcode.tar.1.gz", "the last rule's template wins")
        #expect(run.parts[2].head.filename == "", "no file chosen stays no file")
        #expect(run.records[0].filename == "../../Holiday.JPG" && run.records[0].forwardedFilename == "uuid-1.jpg")
        #expect(run.records[0].matchedRules == ["rename"])
        #expect(run.records[1].matchedRules == ["rename", "also"])
        #expect(run.records[1].rule == "also")
    }

    @Test func renamedNamesPassThroughTheSanitiser() throws {
        let rule = Rule(
            name: "r", rename: .init(field: Build.template("{filename}"), filename: Build.template("..{stem}:{ext}")))
        let body = FormBody([FormPart("f", filename: "a%0Ab.txt", text: "x")])
        var strictness = Strictness()
        try strictness.setAction(.normalize, for: .unsafeFilename)
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), body, strictness: strictness)
        // The parser already replaced the `%` of %0A; the sanitiser drops the leading dots and replaces the colon.
        #expect(run.parts[0].head.name == "a_0Ab.txt")
        #expect(run.parts[0].head.filename == "a_0Ab_.txt")
    }

    @Test func headerOperationsApplyInRuleOrder() throws {
        let first = Rule(
            name: "first", setHeaders: [.init(name: "X-A", value: "1"), .init(name: "X-B", value: "1")])
        let second = Rule(
            name: "second",
            setHeaders: [.init(name: "x-a", value: "2"), .init(name: "Content-Type", value: "text/csv")],
            removeHeaders: ["X-B"])
        let third = Rule(name: "third", match: RuleMatch(field: Build.names("bare")), removeHeaders: ["content-type"])
        let body = FormBody([
            FormPart("csv", type: "text/plain; charset=utf-8", headers: [("X-B", "client")], Array("a,b".utf8)),
            FormPart("bare", type: "text/plain", text: "x"),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([first, second, third]), body)
        #expect(run.parts[0].head.headers == [PartHeader(name: "x-a", value: "2")])
        #expect(run.parts[0].head.contentType == "text/csv")
        #expect(run.parts[1].head.contentType == nil)
        #expect(
            run.records[0].forwardedType == "text/csv" && run.records[0].declaredType == "text/plain; charset=utf-8")
    }

    /// A field's Content-Type would make formidable (any type) or busboy (application/octet-stream) store it as a
    /// file, past rules that judged a field (`has_filename: true` sniff rules): it is left out, unless it names a
    /// charset the backend must know, or a rule sets one. Files keep theirs.
    @Test func fieldsAreForwardedWithoutTheirContentType() throws {
        let typed = Rule(
            name: "typed", match: RuleMatch(field: Build.names("typed")),
            setHeaders: [.init(name: "Content-Type", value: "application/json")])
        let body = FormBody([
            FormPart("avatar", type: "image/png", text: "<?php system($_GET[1]); ?>"),
            FormPart("blob", type: "application/octet-stream", text: "x"),
            FormPart("utf8", type: "text/plain; charset=UTF-8", text: "x"),
            FormPart("latin", type: "text/plain; charset=iso-8859-1", text: "x"),
            FormPart("typed", type: "text/plain", text: "{}"),
            FormPart("file", filename: "a.png", type: "image/png", text: "x"),
        ])
        let run = try PolicyHarness.runEverySplit(
            Build.route([typed], charsets: ["utf-8", "us-ascii", "iso-8859-1"]), body)
        #expect(run.rejection == nil)
        #expect(run.parts.map(\.head.contentType) == [
            nil, nil, nil, "text/plain; charset=iso-8859-1", "application/json", "image/png",
        ])
        #expect(run.records[0].declaredType == "image/png" && run.records[0].forwardedType == nil)
    }

    @Test func stripAndRejectEndTheEvaluation() throws {
        let strip = Rule(name: "strip", match: RuleMatch(field: Build.names("a")), strip: true)
        let reject = Rule(name: "reject", reject: .init())
        let body = FormBody([FormPart("a", text: "1")])
        let run = try PolicyHarness.runEverySplit(Build.route([strip, reject]), body)
        #expect(run.rejection == nil && run.parts.isEmpty)
        #expect(run.records[0].matchedRules == ["strip"])
        let rejectFirst = try PolicyHarness.runEverySplit(Build.route([reject, strip]), body)
        #expect(rejectFirst.rejection?.rule == "reject")
    }

    @Test func oneUUIDPerPartAndOnlyWhenUsed() throws {
        let rule = Rule(
            name: "r", match: RuleMatch(hasFilename: true),
            rename: .init(field: Build.template("{uuid}"), filename: Build.template("{uuid}{ext}")))
        let body = FormBody([
            FormPart("a", filename: "x.txt", text: "1"), FormPart("plain", text: "2"),
            FormPart("b", filename: "y.bin", text: "3"),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route([rule]), body)
        #expect(run.parts.map(\.head.name) == ["uuid-1", "plain", "uuid-2"])
        #expect(run.parts.map(\.head.filename) == ["uuid-1.txt", nil, "uuid-2.bin"])
    }

    @Test func randomUUIDsAreVersion4() {
        let uuid = RandomUUID.make()
        #expect(uuid.count == 36)
        let characters = Array(uuid)
        #expect(characters[8] == "-" && characters[13] == "-" && characters[14] == "4")
        #expect("89ab".contains(characters[19]))
        #expect(uuid != RandomUUID.make())
    }
}
