import Foundation
import Multipart
import Testing

/// formidable's fixtures: 3 body-only parser vectors and 25 full HTTP requests.
@Suite("Conformance: formidable")
struct FormidableCorpusTests {
    // MARK: Parser vectors

    struct Vector: Decodable {
        var id: String
        var boundary: String
        var body_file: String
        var body_sha256: String
        var parts: [VectorPart]?
        var expect_error: Bool?
    }

    struct VectorPart: Decodable {
        var headers: [String: String]
        var data_base64: String

        /// The part, with name and filename read from its Content-Disposition by partgate's own parser.
        func expected() throws -> ExpectedPart {
            let headers = Dictionary(uniqueKeysWithValues: self.headers.map { ($0.key.lowercased(), $0.value) })
            let disposition = try ContentDisposition.parse(try #require(headers["content-disposition"]))
            let data = try #require(Data(base64Encoded: data_base64))
            return ExpectedPart(
                name: String(decoding: disposition.name, as: UTF8.self), isFile: disposition.filename != nil,
                filename: disposition.filename.map { String(decoding: $0, as: UTF8.self) },
                contentType: headers["content-type"].map { .exact($0) } ?? .unchecked, data: .bytes([UInt8](data)))
        }
    }

    static let vectorPrefix = "parser-vectors/"

    static func vectors() throws -> [Vector] {
        let url = ConformancePaths.corpusFile("formidable", "parser-vectors/cases.json")
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }

    @Test(arguments: Decisions.cases(in: "formidable").filter { $0.name.hasPrefix(Self.vectorPrefix) })
    func parserVector(_ decision: ConformanceCase) throws {
        let id = String(decision.name.dropFirst(Self.vectorPrefix.count))
        let vector = try #require(try Self.vectors().first { $0.id == id })
        let body = try ConformancePaths.bytes(
            ConformancePaths.corpusFile("formidable", "parser-vectors/\(vector.body_file)"))
        #expect(SHA256.hex(body) == vector.body_sha256)
        #expect((vector.expect_error ?? false) == (vector.parts == nil))
        let upstream = try vector.parts.map { try $0.map { try $0.expected() } }
        for run in decision.runs {
            try ConformanceCheck.body(body, boundary: vector.boundary, run: run, upstream: upstream)
        }
    }

    // MARK: HTTP requests

    struct Expectations: Decodable {
        var cases: [Request]
    }

    struct Request: Decodable {
        var file: String
        var upstream_expected_parts: [Part]?
        var file_sha256: String
        var declared_content_length: Int?
        var actual_body_length: Int
    }

    struct Part: Decodable {
        var type: String
        var name: String
        var originalFilename: String?
        var sha1: String?
        var content_file: String?

        func expected() throws -> ExpectedPart {
            var data = ExpectedPart.DataCheck.unchecked
            if let content_file {
                data = .bytes(try ConformancePaths.bytes(ConformancePaths.corpusFile("formidable", content_file)))
            } else if let sha1 {
                data = .sha1(sha1)
            }
            return ExpectedPart(name: name, isFile: type == "file", filename: originalFilename, data: data)
        }
    }

    static func requests() throws -> [Request] {
        let url = ConformancePaths.corpusFile("formidable", "expectations.json")
        return try JSONDecoder().decode(Expectations.self, from: Data(contentsOf: url)).cases
    }

    @Test(arguments: Decisions.cases(in: "formidable").filter { $0.name.hasPrefix("http/") })
    func request(_ decision: ConformanceCase) throws {
        let request = try #require(try Self.requests().first { $0.file == decision.name + ".http" })
        let bytes = try ConformancePaths.bytes(ConformancePaths.corpusFile("formidable", request.file))
        #expect(SHA256.hex(bytes) == request.file_sha256)
        let replay = try #require(decision.replay, "a full request needs a replay decision")
        let upstream = try request.upstream_expected_parts.map { try $0.map { try $0.expected() } }
        for run in decision.runs {
            try ConformanceCheck.request(bytes, replay: replay, run: run, upstream: upstream)
        }
    }
}
