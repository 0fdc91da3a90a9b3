import Foundation
import Testing

/// `partgate rewrite` over captured requests with conf/policy-images.yaml: an avatar allow-list.
@Suite("partgate rewrite: conf/policy-images.yaml")
struct RewritePolicyImagesTests {
    static let config = "policy-images.yaml"

    /// The stderr lines that are audit records.
    static func audit(_ result: PartgateBinary.Result) -> [[String: Any]] {
        result.stderr.split(separator: "\n").compactMap { ServeProcess.json(String($0)) }
            .filter { $0["msg"] as? String == "audit" }
    }

    static func refusal(_ result: PartgateBinary.Result) throws -> PrintedMessage {
        #expect(result.status == 3, "stderr: \(result.stderr)")
        let answer = try PrintedMessage(result.stdoutBytes)
        #expect(answer.field("content-type") == "application/problem+json")
        #expect(answer.field("connection") == "close")
        return answer
    }

    @Test func stripsOtherFieldsRenamesAndRetypesAPNGAvatar() throws {
        let request = RawRequest.form(
            "/avatars",
            [
                FormPart("internal", "secret"),
                FormPart("avatar", filename: "../../me.png", type: "application/octet-stream", UploadFixtures.png),
                FormPart("title", "holiday"),
            ])
        let result = try RawRequest.rewrite(request, config: Self.config, ["--boundary", "fixed-boundary"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.startLine == "POST /avatars HTTP/1.1")
        #expect(upstream.field("content-type") == "multipart/form-data; boundary=fixed-boundary")
        // forward: stream, and the captured body is under buffer_small_bodies: sent whole with its length.
        #expect(upstream.chunkSizes == nil && upstream.field("content-length") == String(upstream.body.count))
        let parts = try upstream.parts()
        #expect(parts.count == 1)
        let avatar = try #require(parts.first)
        #expect(avatar.name == "avatar")
        #expect(avatar.type == "image/png")
        #expect(avatar.data == UploadFixtures.png)
        let filename = try #require(avatar.filename)
        #expect(filename.count == 40 && filename.hasSuffix(".png") && !filename.contains("me"), "\(filename)")
        // audit: true on the route; the record names the very filename printed (the {uuid} is replayed).
        let audit = Self.audit(result)
        #expect(audit.map { $0["decision"] as? String } == ["strip", "pass", "strip"])
        #expect(audit.map { $0["rule"] as? String } == ["default", "avatar-image", "default"])
        #expect(audit[1]["forwarded_filename"] as? String == filename)
        #expect(audit[1]["sniffed_type"] as? String == "image/png")
        #expect(audit[1]["sha256"] as? String == (try PartgateBinary.sha256(UploadFixtures.png)))
    }

    @Test func refusesAnExecutableNamedAsAJPEG() throws {
        let request = RawRequest.form(
            "/avatars",
            [
                FormPart("avatar", filename: "cat.jpg", type: "image/jpeg", UploadFixtures.pe)
            ])
        let answer = try Self.refusal(try RawRequest.rewrite(request, config: Self.config))
        #expect(answer.startLine == "HTTP/1.1 415 Unsupported Media Type")
        #expect(answer.json?["flag"] as? String == "no-executables")
        #expect(answer.json?["part"] as? Int == 0)
    }

    @Test func refusesAnAvatarOverFiveMiB() throws {
        let request = RawRequest.form(
            "/avatars",
            [
                FormPart("avatar", filename: "big.png", type: "image/png", UploadFixtures.largePNG(dataBytes: 6 << 20))
            ])
        let answer = try Self.refusal(try RawRequest.rewrite(request, config: Self.config))
        #expect(answer.status == 413)
        #expect(answer.json?["flag"] as? String == "avatar-image")
    }

    @Test func passesAGIFButRefusesAGIFPolyglot() throws {
        let plain = RawRequest.form(
            "/avatars", [FormPart("avatar", filename: "a.gif", type: "image/gif", UploadFixtures.gif)])
        let passed = try RawRequest.rewrite(plain, config: Self.config)
        #expect(passed.status == 0, "stderr: \(passed.stderr)")
        #expect(try PrintedMessage(passed.stdoutBytes).parts().first?.data == UploadFixtures.gif)
        let polyglot = RawRequest.form(
            "/avatars",
            [
                FormPart("avatar", filename: "a.gif", type: "image/gif", UploadFixtures.gifPolyglot)
            ])
        let result = try RawRequest.rewrite(polyglot, config: Self.config)
        let answer = try Self.refusal(result)
        #expect(answer.status == 415)
        #expect(answer.json?["flag"] as? String == "avatar-image")
        #expect(Self.audit(result).last?["decision"] as? String == "reject")
    }

    @Test func refusesAnImageWhoseExtensionLies() throws {
        let request = RawRequest.form(
            "/avatars", [FormPart("avatar", filename: "me.jpg", type: "image/jpeg", UploadFixtures.png)])
        let answer = try Self.refusal(try RawRequest.rewrite(request, config: Self.config))
        #expect(answer.status == 415)
        #expect(answer.json?["flag"] as? String == "avatar-image")
    }

    @Test func refusesOtherBodiesAndOtherPaths() throws {
        let json = RawRequest.post("/avatars", contentType: "application/json", body: Array("{}".utf8))
        let other = try Self.refusal(try RawRequest.rewrite(json, config: Self.config))
        #expect(other.status == 415)
        #expect(other.json?["flag"] as? String == "other_body")
        let elsewhere = RawRequest.form("/upload", [FormPart("avatar", filename: "a.png", UploadFixtures.png)])
        let unrouted = try Self.refusal(try RawRequest.rewrite(elsewhere, config: Self.config))
        #expect(unrouted.status == 404)
        #expect(unrouted.json?["flag"] as? String == "no_route")
    }
}
