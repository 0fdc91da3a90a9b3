import Foundation
import Testing

/// busboy's multipart tests: 27 bodies with busboy's events, options and chunk split points.
@Suite("Conformance: busboy")
struct BusboyCorpusTests {
    struct Case: Decodable {
        var id: String
        var boundary: String
        var body_file: String
        var body_sha256: String
        var chunk_lengths: [Int]
        var expected: [Event]
    }

    /// One busboy event: a field, a file, an error or a limit event.
    struct Event: Decodable {
        var type: String?
        var name: String?
        var value: String?
        var info: Info?
        var data_len: Int?
        var data_sha256: String?
    }

    struct Info: Decodable {
        var filename: String?
        var mimeType: String?
    }

    static func cases() throws -> [Case] {
        let url = ConformancePaths.corpusFile("busboy", "cases/cases.json")
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
    }

    /// busboy's fields and files as parts (errors and limit events carry no part).
    static func expectedParts(_ events: [Event]) throws -> [ExpectedPart] {
        try events.compactMap { event in
            switch event.type {
            case "field":
                return ExpectedPart(
                    name: try #require(event.name), isFile: false,
                    contentType: .mediaType(try #require(event.info?.mimeType)),
                    data: .bytes(Array(try #require(event.value).utf8)))
            case "file":
                return ExpectedPart(
                    name: try #require(event.name), isFile: true, filename: try #require(event.info?.filename),
                    contentType: .mediaType(try #require(event.info?.mimeType)),
                    data: .sha256(try #require(event.data_sha256), size: try #require(event.data_len)))
            default:
                return nil
            }
        }
    }

    @Test(arguments: Decisions.cases(in: "busboy"))
    func body(_ decision: ConformanceCase) throws {
        let busboy = try #require(try Self.cases().first { $0.id == decision.name })
        let body = try ConformancePaths.bytes(ConformancePaths.corpusFile("busboy", "cases/\(busboy.body_file)"))
        #expect(SHA256.hex(body) == busboy.body_sha256)
        #expect(busboy.chunk_lengths.reduce(0, +) == body.count)
        let upstream = try Self.expectedParts(busboy.expected)
        for run in decision.runs {
            try ConformanceCheck.body(
                body, boundary: busboy.boundary, run: run, upstream: upstream,
                feedings: [busboy.chunk_lengths])
        }
    }
}
