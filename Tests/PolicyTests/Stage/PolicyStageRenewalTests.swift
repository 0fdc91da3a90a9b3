import Multipart
import Testing

@testable import Policy

/// A stage renewed for the next body of its route (``PolicyStage/renew()``, a keep-alive connection's next form)
/// acts as a new stage, whatever the last body left in it: a refusal, a part held for sniffing, a part cut off
/// while streaming or truncated, decisions and records not drained.
@Suite("PolicyStage renewal")
struct PolicyStageRenewalTests {
    /// The matrix's routes and bodies (every action at every decision point), enforcing and report-only, with and
    /// without audit records; each body after four different previous ones.
    @Test(arguments: PolicyStageMatrixTests.cases)
    func aRenewedStageActsAsANewOne(testCase: PolicyStageMatrixTests.Case) throws {
        let (rules, data, _) = PolicyStageMatrixTests.scenario(testCase)
        let body = PolicyStageMatrixTests.body(data).bytes
        let other = FormBody([
            FormPart("upload", filename: "b.png", type: "image/png", data),
            FormPart("upload", filename: "c.png", type: "image/png", Array(data.prefix(40))),
        ]).bytes
        let previous: [(bytes: [UInt8], finishing: Bool, label: String)] = [
            (body, true, "the same body"),
            (Array(body[..<(body.count * 2 / 3)]), false, "the same body cut off in its second part"),
            (other, true, "another body"),
            (Array(other[..<(other.count - 30)]), false, "another body cut off in its last part"),
        ]
        for reportOnly in [false, true] {
            let route = Build.route([PolicyStageMatrixTests.plain] + rules, reportOnly: reportOnly)
            for auditRecords in [true, false] {
                let fresh = try PolicyHarness.run(route, body, auditRecords: auditRecords)
                for before in previous {
                    let renewed = try PolicyHarness.runRenewed(
                        route, after: before.bytes, finishing: before.finishing, body, auditRecords: auditRecords)
                    #expect(
                        renewed == fresh,
                        "after \(before.label), report-only \(reportOnly), audit records \(auditRecords)")
                }
            }
        }
    }

    /// The renewed run is compared with a new stage's; this checks that the comparison can fail: a stage that is
    /// not renewed carries the last body's refusal into the next.
    @Test func withoutRenewalTheLastRefusalWouldCarry() throws {
        let route = Build.route([Rule(name: "t", match: RuleMatch(field: Build.names("upload")),
                                      reject: .init(status: 422))])
        let refused = FormBody([FormPart("upload", text: "x")]).bytes
        let passed = FormBody([FormPart("other", text: "y")]).bytes
        var stage = PolicyStage<CountingDigest>(route: route)
        var parser = MultipartParser(boundary: Boundary(FormBody.boundary)!)
        var handler = PolicyFilter(stage: stage, downstream: RecordingHandler())
        try refused.withUnsafeBytes { try parser.parse($0, into: &handler) }
        stage = handler.stage
        #expect(stage.rejection?.status == 422)
        stage.renew()
        #expect(stage.rejection == nil)
        let renewed = try PolicyHarness.runRenewed(route, after: refused, finishing: true, passed)
        let fresh = try PolicyHarness.run(route, passed)
        #expect(renewed == fresh)
        #expect(fresh.rejection == nil && fresh.parts.map(\.head.name) == ["other"])
    }
}
