import Foundation
import Testing

/// One corpus case and partgate's decision for it: an entry of `decisions.json`.
struct ConformanceCase: Sendable, Decodable, CustomTestStringConvertible {
    /// `python-multipart`, `werkzeug`, `busboy`, `formidable` or `waffled`.
    var corpus: String
    /// The case's name within its corpus (a file stem, a case id, or a path for formidable).
    var name: String
    /// What the upstream library does with it, in one line.
    var upstream: String
    /// Why partgate decides as it does, in one line.
    var why: String
    /// Where partgate's current behaviour is open to argument (also in the report and the table).
    var concern: String?
    /// The decision under the case's own configuration.
    var primary: ConformanceRun
    /// The same input under other configurations.
    var variants: [ConformanceRun]
    /// For full HTTP requests: how the body is framed for replay.
    var replay: Replay?
    /// The boundary to use instead of the corpus's, where the corpus's own data is wrong.
    var boundary: String?

    /// The primary run, then the variants.
    var runs: [ConformanceRun] { [primary] + variants }

    var testDescription: String { "\(corpus)/\(name)" }

    private enum CodingKeys: String, CodingKey {
        case corpus, upstream, why, concern, variants, replay, boundary
        case name = "case"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        corpus = try container.decode(String.self, forKey: .corpus)
        name = try container.decode(String.self, forKey: .name)
        upstream = try container.decode(String.self, forKey: .upstream)
        why = try container.decode(String.self, forKey: .why)
        concern = try container.decodeIfPresent(String.self, forKey: .concern)
        primary = try ConformanceRun(from: decoder)
        variants = try container.decodeIfPresent([ConformanceRun].self, forKey: .variants) ?? []
        replay = try container.decodeIfPresent(Replay.self, forKey: .replay)
        boundary = try container.decodeIfPresent(String.self, forKey: .boundary)
    }
}

/// How a full HTTP request's body is replayed when its declared Content-Length is wrong.
struct Replay: Sendable, Decodable, Hashable {
    enum ContentLength: String, Sendable, Decodable, Hashable {
        /// The body is exactly the declared Content-Length; any bytes after it must be empty lines, which
        /// the next-request parser skips (RFC 9112 §2.2).
        case asSent = "as_sent"
        /// The body is every byte after the head (the capture's Content-Length is wrong, and formidable's
        /// test never noticed because it closes the socket).
        case corrected
    }

    var contentLength: ContentLength
    /// For `corrected`: what replaying the request as sent does instead (`http1:truncated_body` when the
    /// declared length is longer than the body, the next-request parser's error when it is shorter).
    var asSent: String?

    private enum CodingKeys: String, CodingKey {
        case contentLength = "content_length"
        case asSent = "as_sent"
    }
}

/// The decisions file.
enum Decisions {
    private struct File: Decodable {
        var cases: [ConformanceCase]
    }

    /// Every decision (empty if the file cannot be read: ``load()`` then fails the coverage test).
    static let all: [ConformanceCase] = (try? load()) ?? []

    /// Reads and decodes `decisions.json`.
    static func load() throws -> [ConformanceCase] {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: ConformancePaths.decisions)).cases
    }

    /// The decisions of one corpus, in file order.
    static func cases(in corpus: String) -> [ConformanceCase] {
        all.filter { $0.corpus == corpus }
    }
}
