import Multipart
import Testing

@testable import Policy

/// A refusal by the parser (a limit, a strict flag) inside a part the policy saw: that part's record says so.
@Suite("PolicyStage parser refusals")
struct PolicyStageParserRefusalTests {
    @Test(arguments: [false, true])
    func thePartInProgressIsRecordedAsRefused(reportOnly: Bool) throws {
        var stage = PolicyStage<NoPartDigest>(route: Build.route(reportOnly: reportOnly))
        _ = stage.partHead(PartHead(index: 0, name: "a"))
        _ = stage.partEnd()
        _ = stage.partHead(PartHead(index: 1, name: "big"))
        stage.parserRefused(MultipartError(.limit(.fieldBytes), part: 1, offset: 90))
        let records = stage.takeAuditRecords()
        #expect(records.map(\.index) == [0, 1])
        #expect(records.map(\.decision) == [.pass, .reject])
        #expect(records[1].rule == "limit_field_bytes")
        #expect(records[1].reportOnly == false, "a parser refusal is carried out on report-only routes too")
        #expect(records[1].detail == "part 1 refused by the limit limit_field_bytes")
        #expect(stage.rejection == nil, "the parser's refusal is the answer, not the policy's")
    }

    @Test func aPartRefusedWithinItsHeadOrAlreadyRecordedGetsNoSecondRecord() {
        var stage = PolicyStage<NoPartDigest>(route: Build.route())
        _ = stage.partHead(PartHead(index: 0, name: "a"))
        _ = stage.partEnd()
        // Refused in part 1's head: the policy never saw part 1.
        stage.parserRefused(MultipartError(.flag(.unsafeName), part: 1, offset: 40))
        #expect(stage.takeAuditRecords().map(\.decision) == [.pass])
        // Refused after part 0 ended (its record exists) and with no part at all.
        stage.parserRefused(MultipartError(.flag(.delimiterGarbage), part: 0, offset: 60))
        stage.parserRefused(MultipartError(.flag(.delimiterGarbage), part: nil, offset: 60))
        #expect(stage.takeAuditRecords().isEmpty)
    }
}
