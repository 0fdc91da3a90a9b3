import FuzzSupport
import Multipart

/// Invariants on one parse outcome of a FuzzMultipart case, beyond the per-event checks of `EventLog`.
enum StructureCheck {
    static func check(_ outcome: ParseOutcome, _ c: MultipartCase) {
        let dashBoundary = Array("--".utf8) + c.boundary.bytes
        // A bare-LF body is reported (lf_line cannot be allowed silently), so its delimiter is known.
        let lfMode = outcome.violations.contains { $0.flag == .lfLine }
        let delimiter = (lfMode ? [10] : [13, 10]) + dashBoundary
        checkGrammar(outcome, c, dashBoundary)

        let parts = outcome.parts
        invariant(parts.count <= c.limits.parts, "\(parts.count) parts over the limit of \(c.limits.parts)")
        for (index, part) in parts.enumerated() {
            if part.head.filename == nil {
                invariant(Int64(part.data.count) <= c.limits.fieldBytes,
                          "field part \(index) has \(part.data.count) bytes, over \(c.limits.fieldBytes)")
            }
            invariant(ByteSearch.firstRange(of: delimiter, in: part.data) == nil,
                      "part \(index) data contains the delimiter (lfMode \(lfMode))")
            guard let range = part.dataRange else { continue }
            invariant(range.lowerBound > part.head.offset, "part \(index) data starts before its delimiter")
            guard part.ended else { continue }
            invariant(ByteSearch.hasPrefix(delimiter, in: c.body, at: Int(range.upperBound)),
                      "part \(index) data ending at \(range.upperBound) is not followed by its delimiter")
            if index + 1 < parts.count {
                let next = parts[index + 1].head.offset
                invariant(next == range.upperBound,
                          "part \(index + 1) delimiter at \(next), part \(index) data ended at \(range.upperBound)")
            }
        }
    }

    /// Events follow `violation* (head (body | violation)* partEnd violation*)* end?`, with heads numbered
    /// from 0 at increasing delimiter offsets, and violations only for flags whose action is normalize.
    private static func checkGrammar(_ outcome: ParseOutcome, _ c: MultipartCase, _ dashBoundary: [UInt8]) {
        var open = false
        var heads = 0
        var lastOffset: Int64 = -1
        for (position, event) in outcome.events.enumerated() {
            switch event {
            case .head(let head):
                invariant(!open && head.index == heads, "head \(head.index) out of order at event \(position)")
                invariant(head.offset > lastOffset, "head \(head.index) offset \(head.offset) not increasing")
                invariant(!head.name.isEmpty, "head \(head.index) has an empty name")
                let at = Int(head.offset)
                let opensPart = (at == 0 && ByteSearch.hasPrefix(dashBoundary, in: c.body, at: 0))
                    || ByteSearch.hasPrefix([13, 10] + dashBoundary, in: c.body, at: at)
                    || ByteSearch.hasPrefix([10] + dashBoundary, in: c.body, at: at)
                invariant(opensPart, "head \(head.index) offset \(at) is not at a delimiter")
                heads += 1
                lastOffset = head.offset
                open = true
            case .body:
                invariant(open, "body outside a part at event \(position)")
            case .partEnd:
                invariant(open, "partEnd outside a part at event \(position)")
                open = false
            case .end:
                invariant(position == outcome.events.count - 1 && outcome.error == nil && !open,
                          "end() not last, inside a part or with an error")
            case .violation(let violation):
                let action = c.strictness.action(for: violation.flag)
                invariant(action == .normalize, "violation \(violation.flag.rawValue) reported with action \(action)")
                invariant(violation.part.map { $0 >= 0 && $0 <= heads } ?? true,
                          "violation \(violation.flag.rawValue) names part \(violation.part!) with \(heads) heads")
            }
        }
        if let error = outcome.error, let part = error.part {
            invariant(part >= 0 && part <= heads, "error \(error) names a part beyond the \(heads) heads")
        }
    }
}
