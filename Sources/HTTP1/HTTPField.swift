/// One header (or trailer) field line: a name as sent and a value with surrounding OWS removed.
///
/// The value is kept as bytes so that obs-text (bytes 0x80-0xFF, which need not be UTF-8) survives a
/// parse-and-serialise round trip unchanged; ``value`` decodes it as UTF-8 for convenience.
public struct HTTPField: Hashable, Sendable, CustomStringConvertible {
    /// The field name exactly as sent (a token, so plain ASCII). Compare it case-insensitively.
    public let name: String
    /// The field value bytes, without leading or trailing SP/HTAB.
    public let valueBytes: [UInt8]

    /// The value decoded as UTF-8 (invalid sequences become U+FFFD).
    public var value: String { String(decoding: valueBytes, as: UTF8.self) }

    /// Creates a field; the name must be a token and the value free of control characters.
    /// - Parameters:
    ///   - name: A token (RFC 9110 §5.1), such as `X-Forwarded-For`.
    ///   - value: A field value without CR, LF, NUL or other controls (HTAB allowed).
    public init(name: String, value: String) {
        self.init(name: name, valueBytes: Array(value.utf8))
    }

    /// Creates a field from raw value bytes; the name must be a token and the value free of controls.
    /// - Parameters:
    ///   - name: A token (RFC 9110 §5.1).
    ///   - valueBytes: Field value bytes without CR, LF, NUL or other controls (HTAB allowed).
    public init(name: String, valueBytes: [UInt8]) {
        precondition(HTTPField.isValidName(name), "field name must be a token")
        precondition(HTTPField.isValidValue(valueBytes), "field value must not hold control characters")
        self.name = name
        self.valueBytes = valueBytes
    }

    /// `Name: value`.
    public var description: String { "\(name): \(value)" }

    /// Appends the field line in wire form: `Name: value` CRLF.
    /// - Parameter buffer: The buffer to append to.
    public func write(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: name.utf8)
        buffer.append(ByteClass.colon)
        buffer.append(ByteClass.sp)
        buffer.append(contentsOf: valueBytes)
        buffer.append(ByteClass.cr)
        buffer.append(ByteClass.lf)
    }

    /// Whether `name` is a non-empty token (RFC 9110 §5.1).
    /// - Parameter name: A candidate field name.
    public static func isValidName(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { !$0.isEmpty && $0.allSatisfy(ByteClass.isTChar) }
            ?? (!name.utf8.isEmpty && name.utf8.allSatisfy(ByteClass.isTChar))
    }

    /// Whether `value` may be sent as a field value: VCHAR, obs-text, SP and HTAB only, with no
    /// leading or trailing whitespace (it would be trimmed by any recipient).
    /// - Parameter value: Candidate value bytes.
    public static func isValidValue(_ value: some Collection<UInt8>) -> Bool {
        guard value.allSatisfy({ ByteClass.isFieldVChar($0) || ByteClass.isWhitespace($0) }) else {
            return false
        }
        guard let first = value.first else {
            return true
        }
        var last = first
        for byte in value {
            last = byte
        }
        return !ByteClass.isWhitespace(first) && !ByteClass.isWhitespace(last)
    }

    /// Whether `value` may be sent as a field value (the String form of the byte check).
    /// - Parameter value: A candidate value.
    public static func isValidValue(_ value: String) -> Bool {
        isValidValue(value.utf8)
    }
}
