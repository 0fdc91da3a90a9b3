import Foundation
import Testing

/// `partgate rewrite` with conf/inspection.yaml: report-only, so everything is forwarded and the audit lines
/// carry what the policy would have done.
@Suite("partgate rewrite: conf/inspection.yaml")
struct RewriteInspectionTests {
    static let config = "inspection.yaml"

    @Test func forwardsEverythingAndAuditsTheWouldBeDecisions() throws {
        let parts = [
            FormPart("notes", "see attached"),
            FormPart("internal_token", "secret"),
            FormPart("avatar", filename: "me.png", type: "image/png", UploadFixtures.png),
            FormPart("resume", filename: "cv.txt", type: "text/plain", Array("plain text".utf8)),
            FormPart("attachment", filename: "tool.exe", type: "application/octet-stream", UploadFixtures.pe),
        ]
        let result = try RawRequest.rewrite(RawRequest.form("/anything", parts), config: Self.config)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(try upstream.parts() == parts)  // names, filenames, types and bytes as sent
        let audit = RewritePolicyImagesTests.audit(result)
        #expect(audit.count == parts.count)
        #expect(audit.allSatisfy { $0["report_only"] as? Bool == true })
        #expect(
            audit.map { $0["decision"] as? String } == [
                "pass (report-only)", "strip (report-only)", "pass (report-only)", "strip (report-only)",
                "reject (report-only)",
            ])
        #expect(
            audit.map { $0["rule"] as? String } == [
                "form-fields", "drop-internal", "avatar-image", "default", "no-executables",
            ])
        #expect(audit[4]["sniffed_type"] as? String == "application/x-msdownload")
        #expect(audit[4]["forwarded_size"] as? Int == UploadFixtures.pe.count)
        #expect(audit[4]["sha256"] as? String == (try PartgateBinary.sha256(UploadFixtures.pe)))
        // Why: every rule that matched, and one sentence for what was not a pass.
        #expect(audit[4]["matched_rules"] as? [String] == ["no-executables"])
        #expect((audit[4]["detail"] as? String)?.isEmpty == false)
        #expect(audit[0]["detail"] == nil)
    }

    /// A browser writes `"` in a filename as `%22`. The enforcing route refuses it (`unsafe_filenames: reject`);
    /// report-only forwards it sanitised and logs the refusal it would have been.
    @Test func forwardsAPercentEncodedQuoteSanitisedAndAuditsTheRefusal() throws {
        let parts = [FormPart("notes", filename: "my %22quoted%22 file.txt", type: "text/plain", Array("x".utf8))]
        let result = try RawRequest.rewrite(RawRequest.form("/upload", parts), config: Self.config)
        #expect(result.status == 0, "stderr: \(result.stderr) \(result.stdout)")
        #expect(try PrintedMessage(result.stdoutBytes).parts().map(\.filename) == ["my _22quoted_22 file.txt"])
        let audit = RewritePolicyImagesTests.audit(result)
        #expect(audit.first?["decision"] as? String == "reject (report-only)")
        #expect(audit.first?["rule"] as? String == "unsafe_filename")
    }

    @Test func sanitisesFilenamesWhileReportingTheRefusal() throws {
        let parts = [
            FormPart("document", filename: "../../etc/report.pdf", type: "application/pdf", Array("%PDF-1.7\n".utf8))
        ]
        let result = try RawRequest.rewrite(RawRequest.form("/upload", parts), config: Self.config)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let forwarded = try PrintedMessage(result.stdoutBytes).parts()
        #expect(forwarded.map(\.filename) == ["report.pdf"])
        let audit = RewritePolicyImagesTests.audit(result)
        #expect(audit.first?["decision"] as? String == "reject (report-only)")
        #expect(audit.first?["rule"] as? String == "unsafe_filename")
    }

    @Test func relaysOtherBodies() throws {
        let json = RawRequest.post("/api", contentType: "application/json", body: Array("{\"a\":1}".utf8))
        let result = try RawRequest.rewrite(json, config: Self.config)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try PrintedMessage(result.stdoutBytes).body == Array("{\"a\":1}".utf8))
    }
}
