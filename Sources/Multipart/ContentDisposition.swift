/// A part's `Content-Disposition` (RFC 7578 §4.2, RFC 6266, RFC 5987/8187), parsed strictly.
///
/// `form-data` with exactly one non-empty `name` and an optional `filename`. A lone `filename*` is decoded
/// (UTF-8 or ISO-8859-1) and reported through ``filenameWasExtended`` so the caller can apply the
/// `filename_extended` flag; `filename` together with `filename*` is `filename_conflict`. Other `*`
/// parameters, duplicate parameters and quoted-pairs are rejected. Names stay raw bytes here: the part
/// reader turns them into text and applies the UTF-8 and unsafe-character checks.
public struct ContentDisposition: Sendable, Hashable {
    /// The `name` parameter, as sent.
    public var name: [UInt8]
    /// The `filename` parameter (or the decoded `filename*`), if any.
    public var filename: [UInt8]?
    /// True if ``filename`` came from a lone `filename*`.
    public var filenameWasExtended: Bool

    /// Parses a header value.
    /// - Throws: ``MultipartError`` (offset: index in `value`).
    public static func parse(_ value: String) throws(MultipartError) -> ContentDisposition {
        try withRawBytes(Array(value.utf8)) { (bytes) throws(MultipartError) -> ContentDisposition in
            try parse(bytes)
        }
    }

    /// Parses a header value given as bytes.
    /// - Throws: ``MultipartError`` (offset: index in `value`).
    public static func parse(_ value: UnsafeRawBufferPointer) throws(MultipartError) -> ContentDisposition {
        do {
            return try scan(value)
        } catch {
            // The scanner reports a control character as a Content-Type syntax error; in a part header it is
            // what the part reader calls it.
            let flag: StrictFlag = error.flag == .contentTypeSyntax ? .headerCTL : error.flag
            throw MultipartError(.flag(flag), offset: Int64(error.offset))
        }
    }

    /// Where the parameters are in a header value: ranges, so the parser builds text without copies.
    struct Ranges {
        var name: Range<Int>
        var filename: Range<Int>?
        var extendedFilename: Range<Int>?
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer) throws(ParameterScanner.Failure) -> ContentDisposition {
        let ranges = try scanRanges(bytes)
        var filename = ranges.filename.map { Array(bytes[$0]) }
        if let extended = ranges.extendedFilename {
            filename = try decodeExtendedValue(bytes, extended)
        }
        return ContentDisposition(name: Array(bytes[ranges.name]), filename: filename,
                                  filenameWasExtended: ranges.extendedFilename != nil)
    }

    /// Scans a header value: `form-data`, then the parameters, strictly.
    static func scanRanges(_ bytes: UnsafeRawBufferPointer) throws(ParameterScanner.Failure) -> Ranges {
        var index = 0
        while index < bytes.count, HeaderSyntax.isWhitespace(bytes[index]) { index += 1 }
        let typeStart = index
        while index < bytes.count, HeaderSyntax.isTokenChar(bytes[index]) { index += 1 }
        guard HeaderSyntax.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[typeStart..<index]), "form-data")
        else {
            throw ParameterScanner.Failure(flag: .dispositionNotFormData, offset: typeStart)
        }
        var scanner = ParameterScanner(bytes, start: index)
        var name: Range<Int>?
        var filename: Range<Int>?
        var extended: (range: Range<Int>, at: Int)?
        var others = Set<[UInt8]>()  // empty: no allocation until an unknown parameter comes
        while let parameter = try scanner.next() {
            let key = UnsafeRawBufferPointer(rebasing: bytes[parameter.name])
            let at = parameter.name.lowerBound
            if HeaderSyntax.equalsLowercase(key, "name") {
                guard name == nil else { throw ParameterScanner.Failure(flag: .duplicateParameter, offset: at) }
                name = parameter.value
            } else if HeaderSyntax.equalsLowercase(key, "filename") {
                guard filename == nil else { throw ParameterScanner.Failure(flag: .duplicateParameter, offset: at) }
                filename = parameter.value
            } else if HeaderSyntax.equalsLowercase(key, "filename*") {
                guard extended == nil else { throw ParameterScanner.Failure(flag: .duplicateParameter, offset: at) }
                guard !parameter.quoted else { throw ParameterScanner.Failure(flag: .invalidQuoting, offset: at) }
                extended = (parameter.value, at)
            } else if ParameterScanner.isExtended(key) {
                throw ParameterScanner.Failure(flag: .parameterContinuation, offset: at)
            } else {
                // Insert in place: a `union` per parameter copied the set each time (quadratic).
                guard others.insert(key.map(HeaderSyntax.lower)).inserted else {
                    throw ParameterScanner.Failure(flag: .duplicateParameter, offset: at)
                }
            }
        }
        guard let name, !name.isEmpty else {
            throw ParameterScanner.Failure(flag: .missingName, offset: bytes.count)
        }
        if let extended, filename != nil {
            throw ParameterScanner.Failure(flag: .filenameConflict, offset: extended.at)
        }
        return Ranges(name: name, filename: filename, extendedFilename: extended?.range)
    }

    /// Decodes an RFC 5987 `ext-value`: `charset "'" [language] "'" *(attr-char / pct-encoded)`,
    /// with charset UTF-8 or ISO-8859-1 (converted to UTF-8).
    static func decodeExtendedValue(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>
    ) throws(ParameterScanner.Failure) -> [UInt8] {
        guard let firstQuote = bytes[range].firstIndex(of: UInt8(ascii: "'")),
            let secondQuote = bytes[(firstQuote + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: "'"))
        else {
            throw ParameterScanner.Failure(flag: .invalidParameter, offset: range.lowerBound)
        }
        let charset = UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<firstQuote])
        let latin1: Bool
        if HeaderSyntax.equalsLowercase(charset, "utf-8") {
            latin1 = false
        } else if HeaderSyntax.equalsLowercase(charset, "iso-8859-1") {
            latin1 = true
        } else {
            throw ParameterScanner.Failure(flag: .filenameExtended, offset: range.lowerBound)
        }
        var out: [UInt8] = []
        var index = secondQuote + 1
        while index < range.upperBound {
            var byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound,
                    let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else {
                    throw ParameterScanner.Failure(flag: .invalidParameter, offset: index)
                }
                byte = high << 4 | low
                index += 3
            } else if isAttrChar(byte) {
                index += 1
            } else {
                throw ParameterScanner.Failure(flag: .invalidParameter, offset: index)
            }
            if latin1 && byte >= 0x80 {
                out.append(0xC0 | byte >> 6)
                out.append(0x80 | byte & 0x3F)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// RFC 5987 `attr-char`.
    private static func isAttrChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? { ASCIIHex.value(byte) }
}
