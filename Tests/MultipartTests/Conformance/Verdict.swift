import Multipart

/// What partgate does with one body under one configuration, as recorded in `decisions.json`
/// (`"partgate": {"decision": "accept" | "normalize" | "reject", "flags": [...], "reason": "..."}`).
enum Verdict: Hashable, Sendable, Decodable, CustomStringConvertible {
    /// Parsed with no strict flag firing.
    case accept
    /// Parsed; these flags fired with action `normalize`, in the order reported.
    case normalize([String])
    /// Refused, naming one check: a ``StrictFlag``, `limit_<name>`, `http1:<code>` for the request head
    /// and framing, or `content_type_missing` when the request has no Content-Type field at all.
    case reject(String)

    private enum CodingKeys: String, CodingKey {
        case decision, flags, reason
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .decision) {
        case "accept":
            self = .accept
        case "normalize":
            self = .normalize(try container.decode([String].self, forKey: .flags))
        case "reject":
            self = .reject(try container.decode(String.self, forKey: .reason))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .decision, in: container, debugDescription: "unknown decision '\(other)'")
        }
    }

    /// The verdict a parse produced.
    init(_ outcome: ParseOutcome) {
        if let error = outcome.error {
            self = .reject(error.name)
        } else if outcome.violations.isEmpty {
            self = .accept
        } else {
            self = .normalize(outcome.violations.map(\.rawValue))
        }
    }

    /// True for accept and normalize: the body was read and parts can be compared.
    var isParsed: Bool {
        if case .reject = self { return false }
        return true
    }

    var description: String {
        switch self {
        case .accept: return "accept"
        case .normalize(let flags): return "normalize \(flags)"
        case .reject(let reason): return "reject \(reason)"
        }
    }
}
