import Multipart
import Sniff
import Testing

@testable import Policy

/// The action contract as the engine sees it through ``PolicyFilter``.
@Suite("PolicyFilter")
struct PolicyFilterTests {
    @Test func afterARejectionNothingReachesDownstreamNotEvenTheEnd() throws {
        let rule = Rule(name: "no-b", match: RuleMatch(field: Build.names("b")), reject: .init())
        let body = FormBody([FormPart("a", text: "1"), FormPart("b", text: "2"), FormPart("c", text: "3")])
        var filter = PolicyFilter(
            stage: PolicyStage<NoPartDigest>(route: Build.route([rule])), downstream: RecordingHandler())
        var parser = MultipartParser(boundary: Boundary(FormBody.boundary)!)
        try body.bytes.withUnsafeBytes { try parser.parse($0, into: &filter) }
        try parser.finish(into: &filter)
        #expect(filter.rejection?.rule == "no-b")
        #expect(filter.downstream.parts.map(\.head.name) == ["a"])
        #expect(!filter.downstream.ended)
        #expect(filter.stage.takeAuditRecords().map(\.decision) == [.pass, .reject])
    }

    @Test func streamedBytesStayPointersIntoTheInput() throws {
        let data = FileFixtures.filler(100_000)
        let body = FormBody([FormPart("f", filename: "big.bin", data)])
        let run = try PolicyHarness.run(
            Build.route(), body.bytes, cuts: Array(stride(from: 4096, to: body.bytes.count, by: 4096)))
        #expect(run.parts[0].data == data)
        // Only what the parser holds back at span edges (a few bytes per span) is not in the span.
        #expect(run.copied < 100)
    }

    @Test func heldBytesAreReleasedBeforeTheRestOfTheSpan() throws {
        let rule = Rule(name: "png", sniff: SniffRule(allow: Build.types("image/png")))
        let png = FileFixtures.png(idatBytes: 3000)
        let body = FormBody([FormPart("p", filename: "a.png", png)])
        let cuts = Array(stride(from: 100, to: body.bytes.count, by: 100))
        let run = try PolicyHarness.run(Build.route([rule]), body.bytes, cuts: cuts)
        #expect(run.parts[0].data == png)
        #expect(run.copied >= 1000 && run.copied <= sniffWindowSize + 100)
    }

    @Test func aHeadThePolicyWritesIsTheRewrittenOne() {
        let rule = Rule(name: "r", rename: .init(field: Build.template("renamed")))
        var filter = PolicyFilter(
            stage: PolicyStage<NoPartDigest>(route: Build.route([rule])), downstream: RecordingHandler())
        filter.partHead(PartHead(index: 0, name: "orig", headers: [PartHeader(name: "X-Client", value: "1")]))
        Array("abc".utf8).withUnsafeBytes { filter.partBody($0, offset: 10) }
        filter.partEnd()
        filter.end()
        #expect(
            filter.downstream.parts == [
                RecordingHandler.Part(head: PartHead(index: 0, name: "renamed"), data: Array("abc".utf8), ended: true)
            ])
        #expect(filter.downstream.ended)
    }
}
