import Multipart
import Sniff
import Testing

@testable import Policy

/// `report_only: true`: evaluate everything, forward what a route without rules forwards.
@Suite("PolicyStage report-only")
struct PolicyStageReportOnlyTests {
    static let rules: [Rule] = [
        Rule(name: "drop-internal", match: RuleMatch(field: Build.names("internal_*")), strip: true),
        Rule(
            name: "avatar", match: RuleMatch(field: Build.names("avatar")),
            rename: .init(filename: Build.template("{uuid}{ext}")),
            sniff: SniffRule(allow: Build.types("image/png"), setContentType: true),
            maxBytes: 2000, onExceed: .truncate),
        Rule(name: "no-exe", match: RuleMatch(sniffedType: Build.types("application/x-msdownload")), reject: .init()),
    ]

    static let body = FormBody([
        FormPart("internal_id", text: "7"),
        FormPart("avatar", filename: "../me.png", type: "application/octet-stream", FileFixtures.png(idatBytes: 3000)),
        FormPart("avatar", filename: "x.png", FileFixtures.gif() + FileFixtures.script),
        FormPart("doc", filename: "cv.pdf", FileFixtures.pe()),
        FormPart("q", type: "text/plain; charset=utf-7", text: "+ADw-"),
        FormPart("_charset_", text: "ibm037"),
        FormPart("note", text: "hello"),
    ])

    @Test func outputsEqualThoseOfTheRouteWithoutRules() throws {
        let reportOnly = Build.route(Self.rules, default: .reject, reportOnly: true, unsafeFilenames: .reject)
        let baseline = Build.route(charsets: ["utf-7", "ibm037", "utf-8", "us-ascii"])
        let observed = try PolicyHarness.runEverySplit(reportOnly, Self.body)
        let plain = try PolicyHarness.runEverySplit(baseline, Self.body)
        #expect(observed.rejection == nil && observed.ended)
        #expect(observed.parts == plain.parts)
        #expect(observed.records.map(\.forwardedBytes) == plain.records.map(\.forwardedBytes))
        #expect(observed.records.map(\.digest) == plain.records.map(\.digest))
        #expect(observed.records.map(\.forwardedFilename) == plain.records.map(\.forwardedFilename))
    }

    @Test func recordsCarryTheWouldBeDecisions() throws {
        let route = Build.route(Self.rules, default: .reject, reportOnly: true)
        var stage = PolicyStage<NoPartDigest>(route: route)
        #expect(stage.isReportOnly)
        let run = try PolicyHarness.runEverySplit(route, Self.body)
        #expect(run.records.allSatisfy { $0.reportOnly })
        #expect(run.records.map(\.decision) == [.strip, .truncate, .reject, .reject, .reject, .reject, .reject])
        #expect(
            run.records.map(\.rule) == [
                "drop-internal", "avatar", "avatar", "no-exe", "charset", "default", "default",
            ])
        #expect(run.records[0].decisionText == "strip (report-only)")
        #expect(run.records[2].detail == "part 2 is image/gif, which is not allowed")
        #expect(run.records[1].forwardedFilename == "me.png", "what went out: the baseline's sanitised name")
        #expect(run.records[1].forwardedBytes == Int64(FileFixtures.png(idatBytes: 3000).count))
        _ = stage.partHead(PartHead(index: 0, name: "internal_x"))
        #expect(stage.rejection == nil)
    }

    /// `unsafe_filenames: reject` refuses `%22` at the parser when enforced; report-only forwards the name
    /// sanitised, as `sanitize` does, and records that refusal as the part's would-be decision.
    @Test func aFilenameTheEnforcingParserRefusesGoesSanitisedAndIsRecordedAsARefusal() throws {
        let enforcing = Build.route(unsafeFilenames: .reject)
        #expect(enforcing.strictness.action(for: .unsafeFilename) == .reject)
        #expect(!enforcing.reportOnlyNormalizesUnsafeFilename)
        let route = Build.route(reportOnly: true, unsafeFilenames: .reject)
        #expect(route.strictness.action(for: .unsafeFilename) == .normalize)
        #expect(route.reportOnlyNormalizesUnsafeFilename)
        let body = FormBody([
            FormPart("doc", filename: "my %22quoted%22.txt", text: "x"), FormPart("note", text: "hi"),
        ])
        let run = try PolicyHarness.runEverySplit(route, body, strictness: route.strictness)
        #expect(run.rejection == nil && run.ended)
        #expect(run.records.map(\.decision) == [.reject, .pass])
        #expect(run.records.map(\.reportOnly) == [true, true])
        #expect(run.records[0].rule == "unsafe_filename")
        #expect(run.records[0].forwardedFilename == "my _22quoted_22.txt")
        #expect(run.records[0].detail?.contains("unsafe_filename") == true)
        // Set in `strict:`, the flag is the operator's: report-only changes nothing about it.
        var strict = Strictness()
        try strict.setAction(.reject, for: .unsafeFilename)
        let explicit = RouteConfiguration(
            name: "t", upstream: "u", reportOnly: true, strictness: strict, unsafeFilenames: .reject)
        #expect(explicit.strictness.action(for: .unsafeFilename) == .reject)
        #expect(!explicit.reportOnlyNormalizesUnsafeFilename)
    }

    /// The one refusal report-only keeps (a filename with no safe spelling under `allow`) is carried out: its
    /// record says so, not "report-only".
    @Test func theRefusalReportOnlyCarriesOutIsNotMarkedReportOnly() throws {
        let route = Build.route([Self.rules[0]], reportOnly: true, unsafeFilenames: .allow)
        let body = FormBody([FormPart("internal_a", text: "1"), FormPart("doc", filename: "a\tb.txt", text: "x")])
        let run = try PolicyHarness.run(route, body.bytes)
        #expect(run.rejection?.reason == .unsafeFilename)
        #expect(run.records.map(\.decision) == [.strip, .reject])
        #expect(run.records.map(\.reportOnly) == [true, false])
        #expect(run.records[1].decisionText == "reject")
    }
}
