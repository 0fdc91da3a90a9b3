import Multipart

/// One configuration a corpus case runs with, and what partgate must do under it: the case's primary
/// decision, or one of its variants.
struct ConformanceRun: Sendable, Decodable {
    /// Non-default flag actions, by flag name (`"lf_line": "normalize"`).
    var strictness: [String: String]
    /// Non-default limits, by limit name (`"parts": 1`).
    var limits: [String: Int]
    /// The expected verdict.
    var verdict: Verdict
    /// How accepted parts are compared with the expectation.
    var partsCheck: PartsCheck
    /// Filenames partgate reports differently from the upstream library, by part name
    /// (e.g. after `unsafe_filename: normalize`).
    var filenames: [String: String]
    /// Parts to expect when the upstream corpus gives none to compare with.
    var expectParts: [ExpectedPart]?
    /// For variants: why this configuration is run too.
    var why: String?

    private enum CodingKeys: String, CodingKey {
        case strictness, limits, partgate, why, filenames
        case partsCheck = "parts_check"
        case expectParts = "expect_parts"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        strictness = try container.decodeIfPresent([String: String].self, forKey: .strictness) ?? [:]
        limits = try container.decodeIfPresent([String: Int].self, forKey: .limits) ?? [:]
        verdict = try container.decode(Verdict.self, forKey: .partgate)
        partsCheck = try container.decodeIfPresent(PartsCheck.self, forKey: .partsCheck) ?? .upstream
        filenames = try container.decodeIfPresent([String: String].self, forKey: .filenames) ?? [:]
        expectParts = try container.decodeIfPresent([ExpectedPart].self, forKey: .expectParts)
        why = try container.decodeIfPresent(String.self, forKey: .why)
    }

    /// The strictness to parse with.
    func makeStrictness() throws -> Strictness {
        var result = Strictness()
        for (name, value) in strictness {
            guard let flag = StrictFlag(rawValue: name), let action = StrictAction(rawValue: value) else {
                throw ConformanceError("unknown strictness entry '\(name): \(value)'")
            }
            try result.setAction(action, for: flag)
        }
        return result
    }

    /// The limits to parse with.
    func makeLimits() throws -> MultipartLimits {
        var result = MultipartLimits()
        for (name, value) in limits {
            switch MultipartLimit(rawValue: name) {
            case .parts: result.parts = value
            case .partHeaderBytes: result.partHeaderBytes = value
            case .headerLines: result.headerLines = value
            case .preambleBytes: result.preambleBytes = value
            case .epilogueBytes: result.epilogueBytes = value
            case .fieldBytes: result.fieldBytes = Int64(value)
            case nil: throw ConformanceError("unknown limit '\(name)'")
            }
        }
        return result
    }
}

/// How the parts of an accepted body are compared with what the corpus expects.
enum PartsCheck: String, Sendable, Decodable {
    /// Every part, in order, against the upstream library's parts.
    case upstream
    /// The upstream library reported only some parts (no listener, a count limit): each of them against
    /// partgate's part of the same name; partgate may report more.
    case upstreamSubset = "upstream_subset"
    /// Only the part names, in order (the upstream library truncated the data).
    case names
    /// Every part, in order, against `expect_parts` in the decision.
    case explicit
}

/// A malformed decision or corpus file.
struct ConformanceError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
