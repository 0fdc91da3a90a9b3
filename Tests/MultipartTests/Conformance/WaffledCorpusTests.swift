import Foundation
import Testing

/// WAFFLED's multipart bypass requests (and the baseline every WAF detected): full HTTP requests.
@Suite("Conformance: waffled")
struct WaffledCorpusTests {
    struct Index: Decodable {
        var cases: [Request]
    }

    struct Request: Decodable {
        var file: String
        var sha256: String
        var declared_content_length: Int
        var actual_body_length: Int

        /// `requests/05-nul-in-part-header-name.http` → `05-nul-in-part-header-name`.
        var caseName: String { URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent }
    }

    static func requests() throws -> [Request] {
        let url = ConformancePaths.corpusFile("waffled", "index.json")
        return try JSONDecoder().decode(Index.self, from: Data(contentsOf: url)).cases
    }

    @Test(arguments: Decisions.cases(in: "waffled"))
    func request(_ decision: ConformanceCase) throws {
        let request = try #require(try Self.requests().first { $0.caseName == decision.name })
        let bytes = try ConformancePaths.bytes(ConformancePaths.corpusFile("waffled", request.file))
        #expect(SHA256.hex(bytes) == request.sha256)
        #expect(request.declared_content_length == request.actual_body_length)
        let replay = try #require(decision.replay, "a full request needs a replay decision")
        // WAFFLED records no parsed parts: accepted runs compare with the decision's expect_parts.
        for run in decision.runs {
            try ConformanceCheck.request(bytes, replay: replay, run: run, upstream: nil)
        }
    }
}
