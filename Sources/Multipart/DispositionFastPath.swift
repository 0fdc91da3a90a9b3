/// The shape nearly every client sends, read in one pass:
/// `Content-Disposition: form-data; name="…"` with an optional `; filename="…"`, quoted values of
/// printable ASCII other than `"`, `\`, `%`, `&` and `=` (the characters ``UnsafeName`` looks at).
///
/// It accepts a strict subset of what ``ContentDisposition`` accepts and yields the same name and filename
/// for it; anything else (other spacing, parameters, characters) returns nil and takes the general path.
enum DispositionFastPath {
    /// Ranges of the name and filename values within `line` (a whole header line without its CRLF).
    struct Match {
        var name: Range<Int>
        var filename: Range<Int>?
    }

    static func parse(_ line: UnsafeRawBufferPointer) -> Match? {
        let count = line.count
        // "content-disposition:" in any letter case: three word compares (non-letters must be exact).
        guard count >= 38,
            word64(line, 0) | 0x0020_2020_2020_2020 == 0x2D74_6E65_746E_6F63,
            word64(line, 8) | 0x2020_2020_2020_2020 == 0x7469_736F_7073_6964,
            word32(line, 16) | 0x0020_2020 == 0x3A6E_6F69
        else { return nil }
        var index = 20
        while index < count, HeaderSyntax.isWhitespace(line[index]) { index += 1 }
        // "form-data" in any letter case, then exactly `; name="`.
        guard index + 17 <= count,
            word64(line, index) | 0x2020_2000_2020_2020 == 0x7461_642D_6D72_6F66,
            line[index + 8] | 0x20 == UInt8(ascii: "a"),
            word64(line, index + 9) == 0x223D_656D_616E_203B
        else { return nil }
        index += 17
        guard let name = quoted(line, &index), !name.isEmpty else { return nil }
        var filename: Range<Int>?
        if index < count, line[index] == UInt8(ascii: ";") {
            // Exactly `; filename="`.
            guard index + 12 <= count, word64(line, index) == 0x616E_656C_6966_203B,
                word32(line, index + 8) == 0x223D_656D
            else { return nil }
            index += 12
            guard let value = quoted(line, &index) else { return nil }
            filename = value
        }
        while index < count, HeaderSyntax.isWhitespace(line[index]) { index += 1 }
        guard index == count else { return nil }
        return Match(name: name, filename: filename)
    }

    @inline(__always)
    private static func word64(_ line: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: line.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    @inline(__always)
    private static func word32(_ line: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: line.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// The value of a quoted-string whose opening quote was just consumed; moves past the closing quote.
    @inline(__always)
    private static func quoted(_ line: UnsafeRawBufferPointer, _ index: inout Int) -> Range<Int>? {
        let start = index
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "%")
                || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=")
            {
                return nil
            }
            index += 1
        }
        return nil
    }
}
