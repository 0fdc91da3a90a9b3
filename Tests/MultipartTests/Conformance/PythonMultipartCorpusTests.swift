import Foundation
import Testing
import Yams

/// python-multipart's `tests/test_data/http`: 30 bodies, each with a YAML expectation.
@Suite("Conformance: python-multipart")
struct PythonMultipartCorpusTests {
    @Test(arguments: Decisions.cases(in: "python-multipart"))
    func body(_ decision: ConformanceCase) throws {
        let body = try ConformancePaths.bytes(
            ConformancePaths.corpusFile("python-multipart", "http/\(decision.name).http"))
        let yamlURL = ConformancePaths.corpusFile("python-multipart", "http/\(decision.name).yaml")
        let yaml = try #require(try Yams.load(yaml: String(contentsOf: yamlURL, encoding: .utf8)) as? [String: Any])
        let yamlBoundary = try #require(yaml["boundary"] as? String)
        #expect(decision.boundary != yamlBoundary, "a boundary override must differ from the yaml's")
        let boundary = decision.boundary ?? yamlBoundary
        let upstream = try Self.expectedParts(yaml["expected"])
        for run in decision.runs {
            try ConformanceCheck.body(body, boundary: boundary, run: run, upstream: upstream)
        }
    }

    /// The YAML `expected:` list as parts, or nil for `{error: offset}` (python-multipart refused it).
    static func expectedParts(_ expected: Any?) throws -> [ExpectedPart]? {
        if let failure = expected as? [String: Any] {
            guard failure["error"] is Int else { throw ConformanceError("expected: neither parts nor error") }
            return nil
        }
        let list = try #require(expected as? [[String: Any]])
        return try list.map { entry in
            let name = try #require(entry["name"] as? String)
            let data = try #require(entry["data"] as? Data, "data must be !!binary")
            let isFile = entry["type"] as? String == "file"
            // python-multipart reports a content type for files only (fields default to text/plain).
            let contentType =
                isFile ? (entry["content_type"] as? String).map { ExpectedPart.ContentTypeCheck.exact($0) } : nil
            return ExpectedPart(
                name: name, isFile: isFile, filename: isFile ? try #require(entry["file_name"] as? String) : nil,
                contentType: contentType ?? .unchecked, data: .bytes([UInt8](data)))
        }
    }
}
