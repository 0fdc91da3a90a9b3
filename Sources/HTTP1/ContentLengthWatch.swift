/// Checks Content-Length while a head streams in, so a bad or duplicate value is refused at the
/// offending byte rather than after the whole head arrived (as llhttp does): a second
/// Content-Length line fails at its colon, a non-digit or an overflowing digit at that byte.
/// ``RequestFraming`` and ``ResponseFraming`` apply the same rules to complete heads.
struct ContentLengthWatch: Sendable {
    /// `content-length`; a StaticString, so reading it needs no lazy global initialisation.
    private static var name: StaticString { "content-length" }
    private static var nameCount: Int { name.utf8CodeUnitCount }

    @inline(__always)
    private static func nameByte(at index: Int) -> UInt8 {
        name.utf8Start[index]
    }

    /// Bytes of the current field name that matched `content-length`, or -1 after a mismatch.
    private var matched = -1
    /// Whether the current field line is a Content-Length.
    private var active = false
    /// Whether a Content-Length line was already seen in this head.
    private var seen = false
    private var digits = 0
    private var value: UInt64 = 0
    private var trailingWhitespace = false

    /// The first byte of a field name.
    @inline(__always)
    mutating func nameStart(_ byte: UInt8) {
        matched = ByteClass.lowercased(byte) == ContentLengthWatch.nameByte(at: 0) ? 1 : -1
    }

    /// A further byte of a field name.
    @inline(__always)
    mutating func nameByte(_ byte: UInt8) {
        guard matched >= 0 else {
            return
        }
        if matched < ContentLengthWatch.nameCount, ByteClass.lowercased(byte) == ContentLengthWatch.nameByte(at: matched) {
            matched += 1
        } else {
            matched = -1
        }
    }

    /// Further name bytes `bytes[start..<end]`, all tchars: the run form of ``nameByte(_:)``, which
    /// stops looking as soon as the name cannot be `content-length`.
    ///
    /// Eight bytes at a time while they fit in the name: within a run of tchars, `byte | 0x20` equals a byte of
    /// `content-length` exactly when the byte is that letter in either case or `-` (the only other byte it
    /// could be, CR, is no tchar), so one comparison decides eight bytes, and a mismatch rules the name out.
    @inline(__always)
    mutating func nameBytes(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        var index = start
        while matched >= 0, matched + 8 <= ContentLengthWatch.nameCount, end - index >= 8 {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) | 0x2020_2020_2020_2020
            let wanted = UnsafeRawPointer(ContentLengthWatch.name.utf8Start)
                .loadUnaligned(fromByteOffset: matched, as: UInt64.self)
            guard word == wanted else {
                matched = -1
                return
            }
            matched += 8
            index += 8
        }
        while matched >= 0, index < end {
            nameByte(bytes[index])
            index += 1
        }
    }

    /// Whether the current field line is a Content-Length (its value bytes need ``valueByte(_:at:)``).
    var isActive: Bool { active }

    /// The colon after a name; `lineStart` is the offset of the name.
    mutating func colon(lineStart: Int) -> HTTP1Error? {
        active = matched == ContentLengthWatch.nameCount
        guard active else {
            return nil
        }
        if seen {
            return HTTP1Error(.duplicateContentLength, offset: lineStart)
        }
        seen = true
        digits = 0
        value = 0
        trailingWhitespace = false
        return nil
    }

    /// A value byte (VCHAR, obs-text, SP or HTAB) at `offset`.
    @inline(__always)
    mutating func valueByte(_ byte: UInt8, at offset: Int) -> HTTP1Error? {
        guard active else {
            return nil
        }
        if ByteClass.isWhitespace(byte) {
            trailingWhitespace = digits > 0
            return nil
        }
        guard ByteClass.isDigit(byte), !trailingWhitespace else {
            return HTTP1Error(.invalidContentLength, offset: offset)
        }
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
        guard !overflow1, !overflow2, sum <= UInt64(Int64.max) else {
            return HTTP1Error(.contentLengthOverflow, offset: offset)
        }
        value = sum
        digits += 1
        return nil
    }

    /// A whole Content-Length line whose value is `bytes[start..<end]` (whitespace trimmed), taken in one step:
    /// true when it is the head's first and its value is 1 to 18 digits (no overflow possible), and the line is
    /// accepted as if its bytes had come one by one. False changes nothing: the caller feeds the line byte by
    /// byte, which finds the error and its offset.
    @inline(__always)
    mutating func acceptsWholeLine(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        guard !seen, end > start, end - start <= 18 else { return false }
        for index in start..<end where !ByteClass.isDigit(bytes[index]) { return false }
        seen = true
        return true
    }

    /// The CR ending a field line at `offset`.
    mutating func lineEnd(at offset: Int) -> HTTP1Error? {
        defer { active = false }
        return active && digits == 0 ? HTTP1Error(.invalidContentLength, offset: offset) : nil
    }
}
