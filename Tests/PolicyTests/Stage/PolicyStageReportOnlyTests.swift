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
}
