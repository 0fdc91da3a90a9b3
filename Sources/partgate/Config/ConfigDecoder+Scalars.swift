import Policy
import Yams

/// Readers for single values: each checks the YAML type and the value, reports a problem at the node and
/// returns nil when either is wrong. `what` names the key in messages, e.g. `'connect_timeout'`.
extension ConfigDecoder {
    /// The text of a scalar; reports lists, mappings and (unless `allowEmpty`) empty strings.
    func string(_ node: Node, _ what: String, allowEmpty: Bool = false) -> String? {
        guard case .scalar(let scalar) = node else {
            report(.wrongType, at: node, "\(what) must be a string, found \(Self.kind(of: node))")
            return nil
        }
        if !allowEmpty && scalar.string.isEmpty {
            report(.invalidValue, at: node, "\(what) must not be empty")
            return nil
        }
        if scalar.string.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            report(.invalidValue, at: node, "\(what) must not contain control characters")
            return nil
        }
        return scalar.string
    }

    /// An unquoted decimal integer within `range`.
    func integer(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
            let value = Self.decimal(scalar.string)
        else {
            report(.wrongType, at: node, "\(what) must be a whole number, found \(Self.kind(of: node))")
            return nil
        }
        guard range.contains(value) else {
            report(
                .invalidValue, at: node,
                "\(what) must be between \(range.lowerBound) and \(range.upperBound), "
                    + "found \(value)")
            return nil
        }
        return value
    }

    /// Digits with an optional leading `-`, as an Int (nil on overflow or anything else).
    static func decimal(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(text)
    }

    /// An unquoted `true` or `false` (also `True`, `TRUE`, …). YAML 1.1's `yes`, `no`, `on` and `off` are
    /// refused: which of them a tool reads as booleans differs.
    func bool(_ node: Node, _ what: String) -> Bool? {
        if case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any {
            switch scalar.string.lowercased() {
            case "true": return true
            case "false": return false
            default: break
            }
        }
        report(.wrongType, at: node, "\(what) must be true or false, found \(Self.kind(of: node))")
        return nil
    }

    /// A size (``ByteSize``): an unquoted byte count or text such as `5MiB`; at least `minimum` bytes.
    func size(_ node: Node, _ what: String, minimum: Int64 = 1) -> Int64? {
        guard let text = string(node, what) else { return nil }
        let bytes: Int64
        do {
            bytes = try ByteSize.parse(text)
        } catch {
            report(.invalidSize, at: node, "\(what): \(error.reason)")
            return nil
        }
        guard bytes >= minimum else {
            report(.invalidValue, at: node, "\(what) must be at least \(ByteSize.format(minimum)), found '\(text)'")
            return nil
        }
        return bytes
    }

    /// A size that must fit an `Int` (header-sized limits).
    func smallSize(_ node: Node, _ what: String) -> Int? {
        guard let bytes = size(node, what) else { return nil }
        guard bytes <= Int64(Int32.max) else {
            report(.invalidValue, at: node, "\(what) must be below 2GiB")
            return nil
        }
        return Int(bytes)
    }

    /// A positive duration (``DurationSyntax``) such as `30s`.
    func duration(_ node: Node, _ what: String) -> Duration? {
        guard let text = string(node, what) else { return nil }
        let duration: Duration
        do {
            duration = try DurationSyntax.parse(text)
        } catch {
            report(.invalidDuration, at: node, "\(what): \(error.reason)")
            return nil
        }
        guard duration > .zero else {
            report(.invalidValue, at: node, "\(what) must be longer than 0ms")
            return nil
        }
        return duration
    }

    /// One of an enum's raw values, e.g. `stream` for ``RouteConfiguration/ForwardMode``.
    func choice<Choice: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _: Choice.Type)
        -> Choice? where Choice.RawValue == String
    {
        guard let text = string(node, what) else { return nil }
        if let value = Choice(rawValue: text) { return value }
        let names = Choice.allCases.map(\.rawValue)
        report(
            .invalidValue, at: node,
            "\(what) must be one of \(names.joined(separator: ", ")), found '\(text)'"
                + Suggestion.clause(for: text, in: names))
        return nil
    }

    /// The items of a list; with `allowSingle`, a lone scalar counts as a one-item list. Empty lists are
    /// reported (they would never match anything).
    func list(_ node: Node, _ what: String, allowSingle: Bool) -> [Node]? {
        switch node {
        case .sequence(let sequence):
            guard !sequence.isEmpty else {
                report(.emptyList, at: node, "\(what) must not be an empty list")
                return nil
            }
            return Array(sequence)
        case .scalar where allowSingle:
            return [node]
        default:
            let expected = allowSingle ? "a value or a list" : "a list"
            report(.wrongType, at: node, "\(what) must be \(expected), found \(Self.kind(of: node))")
            return nil
        }
    }

    /// A value or a list of strings.
    func strings(_ node: Node, _ what: String, allowSingle: Bool = true) -> [(String, Node)]? {
        guard let items = list(node, what, allowSingle: allowSingle) else { return nil }
        var result: [(String, Node)] = []
        var failed = false
        for item in items {
            if let text = string(item, "each item of \(what)") { result.append((text, item)) } else { failed = true }
        }
        return failed ? nil : result
    }

    /// A glob, reported at `node` when it does not compile.
    func glob(_ text: String, at node: Node, _ what: String, caseInsensitive: Bool) -> Glob? {
        do {
            return try Glob(text, caseInsensitive: caseInsensitive)
        } catch {
            report(.invalidValue, at: node, "\(what): \(error.reason)")
            return nil
        }
    }

    /// A value or a list of globs; `validate` may refuse an item with a reason.
    func globs(_ node: Node, _ what: String, caseInsensitive: Bool, validate: (String) -> String? = { _ in nil })
        -> [Glob]?
    {
        guard let items = strings(node, what) else { return nil }
        var result: [Glob] = []
        var failed = false
        for (text, item) in items {
            if let problem = validate(text) {
                report(.invalidValue, at: item, "\(what): \(problem)")
                failed = true
            } else if let glob = glob(text, at: item, what, caseInsensitive: caseInsensitive) {
                result.append(glob)
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }

    /// A path, resolved against the configuration folder, queued for a PEM check of `kind`.
    func pemPath(_ node: Node, _ what: String, kind: PEMFile.Kind) -> String? {
        guard let text = string(node, what) else { return nil }
        let path = resolve(text)
        pemFiles.append(PEMFile(written: text, path: path, kind: kind, node: node, what: what))
        return path
    }
}
