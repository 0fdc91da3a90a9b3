/// Checks a PDF's frame: a `%PDF-d.d` header at the very start and a `%%EOF` marker after which nothing but
/// whitespace follows.
///
/// Incremental updates add `%%EOF` markers; the last one counts. A ZIP, HTML or script appended after it makes
/// a polyglot and fails. (The object structure in between is not parsed.) Markers are found with `memchr` for
/// `%`, and a marker split across spans through the last four bytes of the previous ones.
package struct PDFWalker: StructureWalking {
    private static let header = Array("%PDF-".utf8)
    private static let marker = Array("%%EOF".utf8)

    private var headerBytes = 0
    /// The last (up to) four bytes after the header, oldest in the highest byte used.
    private var tail: UInt32 = 0
    private var tailCount = 0
    private var sawMarker = false
    /// A byte other than whitespace came after the last `%%EOF`.
    private var trailing = false
    private(set) var failure: String?

    init() {}

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while failure == nil, headerBytes < 8, index < bytes.count {
            let byte = bytes[index]
            let ok: Bool
            switch headerBytes {
            case 0..<5: ok = byte == Self.header[headerBytes]
            case 6: ok = byte == UInt8(ascii: ".")
            default: ok = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
            guard ok else {
                failure = "not a %PDF-n.n header"
                return
            }
            headerBytes += 1
            index += 1
        }
        guard failure == nil, index < bytes.count else { return }
        let body = UnsafeRawBufferPointer(rebasing: bytes[index...])
        var markerEnd: Int?
        // A marker that began in earlier spans.
        for fromTail in stride(from: min(4, tailCount), through: 1, by: -1) where body.count >= 5 - fromTail {
            if tailEnds(with: fromTail), (0..<(5 - fromTail)).allSatisfy({ body[$0] == Self.marker[fromTail + $0] }) {
                markerEnd = 5 - fromTail
            }
        }
        var position = 0
        while let percent = ByteScan.firstIndex(of: UInt8(ascii: "%"), in: body, from: position) {
            if percent + 5 <= body.count, (1..<5).allSatisfy({ body[percent + $0] == Self.marker[$0] }) {
                markerEnd = percent + 5
            }
            position = percent + 1
        }
        if let markerEnd {
            sawMarker = true
            trailing = Self.containsNonWhitespace(body, from: markerEnd)
        } else if !trailing {
            trailing = Self.containsNonWhitespace(body, from: 0)
        }
        for byte in body.suffix(4) { tail = tail << 8 | UInt32(byte) }
        tailCount = min(4, tailCount + body.count)
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        guard headerBytes == 8 else { return .invalid("the PDF ends inside its header") }
        guard sawMarker else { return .invalid("a PDF without a %%EOF marker") }
        return trailing ? .invalid("data after the PDF's last %%EOF marker") : .valid
    }

    /// Whether the last `count` bytes kept from earlier spans are the first `count` bytes of `%%EOF`.
    private func tailEnds(with count: Int) -> Bool {
        (0..<count).allSatisfy { offset in
            UInt8(truncatingIfNeeded: tail >> (8 * UInt32(count - 1 - offset))) == Self.marker[offset]
        }
    }

    private static func containsNonWhitespace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var index = start
        while index < bytes.count {
            if !isWhitespace(bytes[index]) { return true }
            index += 1
        }
        return false
    }

    /// PDF whitespace: NUL, TAB, LF, FF, CR, SP.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0 || byte == 9 || byte == 10 || byte == 12 || byte == 13 || byte == 32
    }
}
