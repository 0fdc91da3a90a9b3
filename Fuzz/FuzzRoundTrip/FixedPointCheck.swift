import FuzzSupport
import Multipart

/// Round trip (b): the raw input as a body. If the lenient parser accepts it, its parts re-encoded by
/// `MultipartEncoder` form a canonical body that the default-strict parser accepts with no violation,
/// reads to the same parts (header names differ only in case), and re-encodes to the same bytes: the
/// canonical form is a fixed point.
enum FixedPointCheck {
    /// Every flag that can be relaxed, relaxed: the widest set of accepted bodies.
    static let lenient: Strictness = {
        var strictness = Strictness()
        for flag in StrictFlag.allCases where flag.permittedActions.contains(.normalize) {
            try! strictness.setAction(.normalize, for: flag)
        }
        try! strictness.setAction(.allow, for: .nestedMultipart)
        return strictness
    }()

    static func run(_ body: UnsafeRawBufferPointer) {
        guard let boundary = guessBoundary(body) else { return }
        let limits = MultipartLimits()
        let original = Feeder.parse(body, boundary: boundary, limits: limits, strictness: lenient)
        guard original.error == nil else { return }

        let canonical = encode(original.parts, boundary)
        // A canonical head can be longer than the one sent (quotes, "; ", U+FFFD for bad bytes).
        var canonicalLimits = limits
        canonicalLimits.partHeaderBytes = 4 * limits.partHeaderBytes + 1024
        let reread = canonical.withUnsafeBytes {
            Feeder.parse($0, boundary: boundary, limits: canonicalLimits,
                         strictness: EncodeParseCheck.canonicalStrictness)
        }
        invariant(reread.error == nil && reread.violations.isEmpty,
                  "canonical form of an accepted body is not clean: \(reread)")
        let before = original.parts
        let after = reread.parts
        invariant(before.count == after.count, "canonical form has \(after.count) parts, original \(before.count)")
        for (a, b) in zip(before, after) {
            invariant(same(a.head, b.head) && a.data == b.data,
                      "part \(a.head.index) changed in the canonical form: \(a.head) -> \(b.head)")
        }
        invariant(encode(after, boundary) == canonical, "canonical form is not a fixed point")
    }

    static func same(_ a: PartHead, _ b: PartHead) -> Bool {
        a.index == b.index && a.name == b.name && a.filename == b.filename && a.contentType == b.contentType
            && a.headers.count == b.headers.count
            && zip(a.headers, b.headers).allSatisfy {
                $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value
            }
    }

    static func encode(_ parts: [ParseOutcome.Part], _ boundary: Boundary) -> [UInt8] {
        var encoder = MultipartEncoder(boundary: boundary)
        var out: [UInt8] = []
        for part in parts {
            do {
                try encoder.writePartHead(part.head, into: &out)
            } catch {
                invariant(false, "encoder refused a head the parser accepted: \(part.head): \(error)")
            }
            out += part.data
        }
        encoder.writeEnd(into: &out)
        return out
    }

    /// The boundary a body announces: the bchars after its first `--` (trailing spaces dropped).
    static func guessBoundary(_ body: UnsafeRawBufferPointer) -> Boundary? {
        guard let dashes = ByteSearch.firstRange(of: Array("--".utf8), in: body) else { return nil }
        var candidate = Array(body[(dashes + 2)...].prefix(while: Boundary.isBChar).prefix(Boundary.maximumLength))
        while candidate.last == UInt8(ascii: " ") { candidate.removeLast() }
        return Boundary(candidate)
    }
}
