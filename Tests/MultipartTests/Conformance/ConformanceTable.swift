/// The rows of `docs/conformance.md`, rendered exactly as `scripts/conformance-table.py` renders them, so
/// that a test can tell when the committed page no longer matches `decisions.json`.
enum ConformanceTable {
    /// The Markdown table row of one case: case, upstream, partgate, why.
    static func row(_ decision: ConformanceCase) -> String {
        "| `\(decision.name)` | \(escape(decision.upstream)) | \(partgateCell(decision)) | \(whyCell(decision)) |"
    }

    /// The summary row of a corpus (or of all cases): cases, accepted as-is, normalized, rejected.
    static func summaryRow(_ name: String, _ cases: [ConformanceCase]) -> String {
        let verdicts = cases.map(\.primary.verdict)
        let accepted = verdicts.count { $0 == .accept }
        let normalized = verdicts.count { if case .normalize = $0 { return true } else { return false } }
        let rejected = verdicts.count { !$0.isParsed }
        return "| \(name) | \(cases.count) | \(accepted) | \(normalized) | \(rejected) |"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    static func verdict(_ verdict: Verdict) -> String {
        switch verdict {
        case .accept: return "**accept**"
        case .normalize(let flags): return "**normalize** " + flags.map { "`\($0)`" }.joined(separator: ", ")
        case .reject(let reason): return "**reject** `\(reason)`"
        }
    }

    static func settings(_ run: ConformanceRun, of decision: ConformanceCase? = nil) -> [String] {
        var items = run.strictness.sorted { $0.key < $1.key }.map { "`\($0.key): \($0.value)`" }
        items += run.limits.sorted { $0.key < $1.key }.map { "`\($0.key): \($0.value)`" }
        if let decision {
            if let boundary = decision.boundary { items.append("boundary `\(boundary)`") }
            if decision.replay?.contentLength == .corrected { items.append("Content-Length corrected") }
        }
        return items
    }

    static func partgateCell(_ decision: ConformanceCase) -> String {
        var cell = verdict(decision.primary.verdict)
        let items = settings(decision.primary, of: decision)
        if !items.isEmpty { cell += " (with " + items.joined(separator: ", ") + ")" }
        for variant in decision.variants {
            let items = settings(variant)
            cell +=
                "<br>with " + (items.isEmpty ? "the defaults" : items.joined(separator: ", ")) + ": "
                + verdict(variant.verdict)
        }
        return escape(cell)
    }

    static func whyCell(_ decision: ConformanceCase) -> String {
        var text = decision.why
        for variant in decision.variants { text += " / " + (variant.why ?? "") }
        if let concern = decision.concern { text += " **Concern:** " + concern }
        return escape(text)
    }
}
