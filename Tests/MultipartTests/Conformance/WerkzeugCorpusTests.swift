import Foundation
import Testing

/// Werkzeug's `tests/multipart`: five browser captures and the LF-only IE7 capture.
@Suite("Conformance: werkzeug")
struct WerkzeugCorpusTests {
    struct Expectations: Decodable {
        var cases: [Capture]
    }

    struct Capture: Decodable {
        var body_file: String
        var boundary: String
        var body_len: Int
        var body_sha256: String
        var expected_parts: [Part]

        /// `multipart/firefox3-2png1txt/request.http` → `firefox3-2png1txt`; `multipart/x.http` → `x`.
        var caseName: String {
            let url = URL(fileURLWithPath: body_file)
            return url.lastPathComponent == "request.http"
                ? url.deletingLastPathComponent().lastPathComponent : url.deletingPathExtension().lastPathComponent
        }
    }

    struct Part: Decodable {
        var name: String
        var filename: String?
        var content_type: String?
        var size: Int?
        var sha256: String?

        var expected: ExpectedPart {
            let data: ExpectedPart.DataCheck = sha256.map { .sha256($0, size: size ?? -1) } ?? .unchecked
            return ExpectedPart(
                name: name, isFile: filename != nil, filename: filename,
                contentType: content_type.map { .exact($0) } ?? .unchecked, data: data)
        }
    }

    static func captures() throws -> [Capture] {
        let url = ConformancePaths.corpusFile("werkzeug", "expectations.json")
        return try JSONDecoder().decode(Expectations.self, from: Data(contentsOf: url)).cases
    }

    @Test(arguments: Decisions.cases(in: "werkzeug"))
    func capture(_ decision: ConformanceCase) throws {
        let capture = try #require(try Self.captures().first { $0.caseName == decision.name })
        let body = try ConformancePaths.bytes(ConformancePaths.corpusFile("werkzeug", capture.body_file))
        #expect(body.count == capture.body_len)
        #expect(SHA256.hex(body) == capture.body_sha256)
        for run in decision.runs {
            try ConformanceCheck.body(
                body, boundary: capture.boundary, run: run,
                upstream: capture.expected_parts.map(\.expected))
        }
    }
}
