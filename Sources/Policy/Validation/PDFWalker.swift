/// Checks a PDF's frame: a `%PDF-d.d` header at the very start and a `%%EOF` marker after which nothing but
/// whitespace follows.
///
/// Incremental updates add `%%EOF` markers; the last one counts. A ZIP, HTML or script appended after it makes
/// a polyglot and fails. (The object structure in between is not parsed.)
struct PDFWalker: StructureWalking {
    private static let header = Array("%PDF-".utf8)
    private static let marker = Array("%%EOF".utf8)

    private var headerBytes = 0
    /// Leading bytes of `%%EOF` matched so far.
    private var matched = 0
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
        guard failure == nil else { return }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == Self.marker[matched] {
                matched += 1
                if matched == Self.marker.count {
                    matched = 0
                    sawMarker = true
                    trailing = false
                    continue
                }
            } else if byte == UInt8(ascii: "%") {
                matched = matched == 2 ? 2 : 1
            } else {
                matched = 0
            }
            if !Self.isWhitespace(byte) { trailing = true }
        }
    }

    func finish() -> StructureVerdict {
        if let failure { return .invalid(failure) }
        guard headerBytes == 8 else { return .invalid("the PDF ends inside its header") }
        guard sawMarker else { return .invalid("a PDF without a %%EOF marker") }
        return trailing ? .invalid("data after the PDF's last %%EOF marker") : .valid
    }

    /// PDF whitespace: NUL, TAB, LF, FF, CR, SP.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0 || byte == 9 || byte == 10 || byte == 12 || byte == 13 || byte == 32
    }
}
