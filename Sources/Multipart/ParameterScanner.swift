/// A strict scanner for `*( OWS ";" OWS [ name "=" value ] ) OWS` parameter lists (RFC 9110 §5.6.6),
/// shared by the request Content-Type, part Content-Type and Content-Disposition parsers.
///
/// Strict where parsers disagree: no whitespace around `=`, values are one token or one quoted-string,
/// quoted-strings have no quoted-pairs (user agents do not implement `\` escaping alike, RFC 6266 §4.3),
/// and nothing may follow a value but OWS and `;`. Runs in linear time with no allocation.
struct ParameterScanner {
    /// One parameter: ranges into the scanned buffer.
    struct Parameter {
        /// The parameter name, as sent.
        var name: Range<Int>
        /// The value, without the quotes of a quoted-string.
        var value: Range<Int>
        /// Whether the value was a quoted-string.
        var quoted: Bool
    }

    /// A syntax error: the flag and the offset in the scanned buffer.
    struct Failure: Error {
        var flag: StrictFlag
        var offset: Int
    }

    private let bytes: UnsafeRawBufferPointer
    private var index: Int

    /// - Parameters:
    ///   - bytes: the header value.
    ///   - start: where the parameter list begins (just after the media type or disposition type).
    init(_ bytes: UnsafeRawBufferPointer, start: Int) {
        self.bytes = bytes
        self.index = start
    }

    /// The next parameter, or nil at the end of the value.
    mutating func next() throws(Failure) -> Parameter? {
        while true {
            skipWhitespace()
            if index == bytes.count { return nil }
            guard bytes[index] == UInt8(ascii: ";") else {
                throw Failure(flag: .invalidParameter, offset: index)
            }
            index += 1
            skipWhitespace()
            if index == bytes.count { return nil }  // a trailing ";" is an empty parameter
            if bytes[index] == UInt8(ascii: ";") { continue }
            return try parameter()
        }
    }

    private mutating func parameter() throws(Failure) -> Parameter {
        let nameStart = index
        while index < bytes.count, HeaderSyntax.isTokenChar(bytes[index]) { index += 1 }
        let name = nameStart..<index
        guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw Failure(flag: .invalidParameter, offset: index)
        }
        index += 1
        guard index < bytes.count else { throw Failure(flag: .invalidParameter, offset: index) }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            let valueStart = index
            while true {
                guard index < bytes.count else { throw Failure(flag: .invalidQuoting, offset: index) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") { throw Failure(flag: .invalidQuoting, offset: index) }
                if HeaderSyntax.isControl(byte) { throw Failure(flag: .contentTypeSyntax, offset: index) }
                index += 1
            }
            let value = valueStart..<index
            index += 1
            try expectEndOfValue(.invalidQuoting)
            return Parameter(name: name, value: value, quoted: true)
        }
        let valueStart = index
        while index < bytes.count, HeaderSyntax.isTokenChar(bytes[index]) { index += 1 }
        let value = valueStart..<index
        guard !value.isEmpty else { throw Failure(flag: .invalidParameter, offset: index) }
        try expectEndOfValue(.invalidParameter)
        return Parameter(name: name, value: value, quoted: false)
    }

    /// After a value: OWS, then `;` or the end.
    private mutating func expectEndOfValue(_ flag: StrictFlag) throws(Failure) {
        var probe = index
        while probe < bytes.count, HeaderSyntax.isWhitespace(bytes[probe]) { probe += 1 }
        guard probe == bytes.count || bytes[probe] == UInt8(ascii: ";") else {
            throw Failure(flag: flag, offset: index)
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, HeaderSyntax.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Scans `type "/" subtype` at the start of `bytes` (after OWS).
    /// - Returns: the ranges of type and subtype, and the index after them.
    static func mediaType(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> (type: Range<Int>, subtype: Range<Int>, end: Int) {
        var index = 0
        while index < bytes.count, HeaderSyntax.isWhitespace(bytes[index]) { index += 1 }
        let typeStart = index
        while index < bytes.count, HeaderSyntax.isTokenChar(bytes[index]) { index += 1 }
        let type = typeStart..<index
        guard !type.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "/") else {
            throw Failure(flag: .contentTypeSyntax, offset: index)
        }
        index += 1
        let subStart = index
        while index < bytes.count, HeaderSyntax.isTokenChar(bytes[index]) { index += 1 }
        let subtype = subStart..<index
        guard !subtype.isEmpty else { throw Failure(flag: .contentTypeSyntax, offset: index) }
        return (type, subtype, index)
    }

    /// True if a parameter name is an RFC 2231 extended or continued one (`x*`, `x*0`, `x*0*`).
    static func isExtended(_ name: UnsafeRawBufferPointer) -> Bool {
        name.contains(UInt8(ascii: "*"))
    }
}
