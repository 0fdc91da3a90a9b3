/// The sniffing algorithm over one window of bytes.
///
/// Every byte is read through `has(_:)`, which records whether a rule asked for a byte that a longer prefix of
/// the same resource could supply (`wantedMore`). That record is what makes `SniffResult.isFinal` exact: if no
/// rule ever wanted a missing byte, no longer prefix can change any rule's outcome, so the answer stands.
///
/// Rules never look at or past `sniffWindowSize`, never allocate, and each runs in time linear in the window.
struct SniffScanner {
    /// A rule's decision: the type and the name of the rule.
    typealias Match = (type: SniffedType, signature: String)

    /// The window: at most `sniffWindowSize` leading bytes of the resource.
    let bytes: UnsafeRawBufferPointer
    /// True when the resource ends where `bytes` ends.
    let isComplete: Bool
    /// Set when a rule asked for a byte that the resource may still supply.
    private(set) var wantedMore = false

    /// Creates a scanner over the first `sniffWindowSize` bytes of `raw`.
    /// - Parameters:
    ///   - raw: leading bytes of the resource; bytes past `sniffWindowSize` are ignored.
    ///   - complete: whether the resource ends where `raw` ends.
    init(_ raw: UnsafeRawBufferPointer, complete: Bool) {
        let length = min(raw.count, sniffWindowSize)
        bytes = UnsafeRawBufferPointer(rebasing: raw[0..<length])
        // A resource longer than the window is, as far as sniffing goes, a full window that did not end.
        isComplete = complete && raw.count <= sniffWindowSize
    }

    /// Number of bytes in the window.
    var count: Int { bytes.count }

    /// Runs every rule in order and returns the first decision.
    mutating func run() -> SniffResult {
        let match = classify()
        return SniffResult(type: match.type, signature: match.signature, isFinal: !wantedMore)
    }

    /// The rule order. Earlier rules win; see the module documentation for why each group sits where it does.
    private mutating func classify() -> Match {
        if isComplete && count == 0 { return (.plainText, "empty") }
        // A tar header starts with a free-form file name, so it must outrank every rule that looks at offset 0.
        if let match = matchTar() { return match }
        if let match = matchExecutable() { return match }
        if let match = matchMarkup() { return match }
        if let match = matchTextDocument() { return match }
        if let match = matchByteOrderMark() { return match }
        if let match = matchShebang() { return match }
        if let match = matchImage() { return match }
        if let match = matchAudioOrVideo() { return match }
        if let match = matchFont() { return match }
        if let match = matchArchive() { return match }
        return textOrBinary()
    }

    /// WHATWG's last steps: `text/plain` unless the window holds a binary data byte.
    private mutating func textOrBinary() -> Match {
        var index = 0
        while has(index) {
            if Self.isBinaryDataByte(bytes[index]) { return (.octetStream, "binary") }
            index += 1
        }
        return (.plainText, "text")
    }

    // MARK: Reading

    /// Whether `index` is inside the window; records a wish for more bytes when a longer prefix could hold it.
    mutating func has(_ index: Int) -> Bool {
        if index >= 0 && index < bytes.count { return true }
        if !isComplete && index >= bytes.count && index < sniffWindowSize { wantedMore = true }
        return false
    }

    /// The byte at `index`, or nil when the window does not hold it.
    mutating func byte(_ index: Int) -> UInt8? {
        has(index) ? bytes[index] : nil
    }

    /// Whether `length` bytes starting at `offset` are all inside the window.
    mutating func has(_ offset: Int, length: Int) -> Bool {
        length <= 0 || (offset >= 0 && has(offset + length - 1))
    }

    /// A big-endian 16-bit field.
    mutating func uint16BE(_ offset: Int) -> Int? {
        guard has(offset, length: 2) else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// A little-endian 16-bit field.
    mutating func uint16LE(_ offset: Int) -> Int? {
        guard has(offset, length: 2) else { return nil }
        return Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    /// A big-endian 32-bit field.
    mutating func uint32BE(_ offset: Int) -> Int? {
        guard has(offset, length: 4) else { return nil }
        var value = 0
        for index in offset..<offset + 4 { value = value << 8 | Int(bytes[index]) }
        return value
    }

    /// A little-endian 32-bit field.
    mutating func uint32LE(_ offset: Int) -> Int? {
        guard has(offset, length: 4) else { return nil }
        var value = 0
        for index in (offset..<offset + 4).reversed() { value = value << 8 | Int(bytes[index]) }
        return value
    }

    /// Whether the window holds `pattern` at `offset`. Stops at the first differing byte, so a mismatch inside
    /// the window never asks for more bytes.
    mutating func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        for (index, expected) in pattern.enumerated() {
            guard let actual = byte(offset + index), actual == expected else { return false }
        }
        return true
    }

    /// Whether the window holds the ASCII text `pattern` at `offset`.
    /// - Parameters:
    ///   - pattern: ASCII text.
    ///   - offset: where to compare.
    ///   - ignoringCase: compare ASCII letters case-insensitively (the WHATWG 0xDF mask).
    mutating func matches(_ pattern: StaticString, at offset: Int, ignoringCase: Bool = false) -> Bool {
        pattern.withUTF8Buffer { text in
            for (index, expected) in text.enumerated() {
                guard let actual = byte(offset + index) else { return false }
                let same =
                    ignoringCase ? Self.asciiLowercased(actual) == Self.asciiLowercased(expected) : actual == expected
                if !same { return false }
            }
            return true
        }
    }

    /// Whether a binary data byte occurs in `range` (bytes outside the window are not inspected).
    /// Returns nil when the window ends inside the range before one is found.
    mutating func containsBinaryDataByte(in range: Range<Int>) -> Bool? {
        for index in range {
            guard let value = byte(index) else { return nil }
            if Self.isBinaryDataByte(value) { return true }
        }
        return false
    }

    /// The first index at or after `offset` that is not a WHATWG whitespace byte, or nil at the window's end.
    mutating func skipWhitespace(from offset: Int) -> Int? {
        var index = offset
        while let value = byte(index) {
            if !Self.isWhitespace(value) { return index }
            index += 1
        }
        return nil
    }

    // MARK: Byte classes

    /// WHATWG binary data byte: 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F.
    static func isBinaryDataByte(_ value: UInt8) -> Bool {
        value <= 0x08 || value == 0x0B || (value >= 0x0E && value <= 0x1A) || (value >= 0x1C && value <= 0x1F)
    }

    /// WHATWG whitespace byte: HT, LF, FF, CR, SP.
    static func isWhitespace(_ value: UInt8) -> Bool {
        value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D || value == 0x20
    }

    /// ASCII lowercase of one byte; other bytes unchanged.
    static func asciiLowercased(_ value: UInt8) -> UInt8 {
        value >= 0x41 && value <= 0x5A ? value | 0x20 : value
    }
}
