/// Helpers for the list-valued and numeric fields that decide framing (RFC 9110 §5.6.1, §8.6).
enum FieldValueList {
    /// A transfer coding as listed in Transfer-Encoding.
    struct Coding: Equatable {
        /// Lowercased coding name.
        var name: String
        /// Whether `;parameters` followed the name.
        var hasParameters: Bool
        /// The coding as sent, name and parameters (what a proxy that re-frames the body announces again).
        var text: [UInt8]
    }

    /// Splits every value on `,` and trims OWS; empty elements are kept (as empty slices).
    static func elements(_ values: FieldValues) -> [ArraySlice<UInt8>] {
        guard !values.isEmpty else { return [] }  // the usual case (no such field): no iterator, no reference counts
        var result: [ArraySlice<UInt8>] = []
        for value in values {
            var start = value.startIndex
            var index = value.startIndex
            while true {
                if index == value.endIndex || value[index] == ByteClass.comma {
                    result.append(trimmed(value[start..<index]))
                    if index == value.endIndex {
                        break
                    }
                    start = index + 1
                }
                index += 1
            }
        }
        return result
    }

    /// `bytes` without leading and trailing SP/HTAB.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, ByteClass.isWhitespace(bytes[lower]) {
            lower += 1
        }
        while upper > lower, ByteClass.isWhitespace(bytes[upper - 1]) {
            upper -= 1
        }
        return bytes[lower..<upper]
    }

    /// Whether `bytes` is a non-empty token.
    static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(ByteClass.isTChar)
    }

    private static let keepAliveOption: Set<String> = ["keep-alive"]
    private static let closeOption: Set<String> = ["close"]

    /// Whether `bytes` spell `lowercase` (given in lower case), ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { wanted in
            var index = bytes.startIndex
            for byte in wanted {
                if ByteClass.lowercased(bytes[index]) != byte { return false }
                index += 1
            }
            return true
        }
    }

    /// ASCII-lowercased string of token bytes.
    static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        // Token bytes are ASCII: written straight into the String's storage (a lazy map through
        // `String(decoding:)` cost about 1.7 k instructions, a dynamic cast included).
        String(unsafeUninitializedCapacity: bytes.count) { out in
            var index = 0
            for byte in bytes {
                out[index] = ByteClass.lowercased(byte)
                index += 1
            }
            return index
        }
    }

    /// The single Content-Length of `values` (one per field line), or nil when there is none.
    /// - Throws: `duplicate_content_length`, `invalid_content_length`, `content_length_overflow`.
    static func contentLength(_ values: FieldValues) throws(HTTP1Error) -> UInt64? {
        guard let value = values.first else {
            return nil
        }
        guard values.count == 1 else {
            throw HTTP1Error(.duplicateContentLength)
        }
        guard !value.isEmpty else {
            throw HTTP1Error(.invalidContentLength)
        }
        var length: UInt64 = 0
        for byte in value {
            guard ByteClass.isDigit(byte) else {
                throw HTTP1Error(.invalidContentLength)
            }
            let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow1, !overflow2, sum <= UInt64(Int64.max) else {
                throw HTTP1Error(.contentLengthOverflow)
            }
            length = sum
        }
        return length
    }

    /// The transfer codings of every Transfer-Encoding line, in order (RFC 9112 §7:
    /// `transfer-coding = token *( OWS ";" OWS token BWS "=" BWS ( token / quoted-string ) )`). A comma inside a
    /// quoted parameter value does not end the coding.
    /// - Throws: `invalid_transfer_encoding` for an empty element or one that does not follow that grammar.
    static func codings(_ values: FieldValues) throws(HTTP1Error) -> [Coding] {
        guard !values.isEmpty else { return [] }
        var codings: [Coding] = []
        for value in values {
            var index = value.startIndex
            while true {
                index = skippingWhitespace(value, from: index)
                let start = index
                index = skippingToken(value, from: index)
                guard index > start else { throw HTTP1Error(.invalidTransferEncoding) }
                let name = lowercased(value[start..<index])
                var end = index
                var hasParameters = false
                while true {
                    var cursor = skippingWhitespace(value, from: end)
                    guard cursor < value.endIndex, value[cursor] == ByteClass.semicolon else { break }
                    cursor = skippingWhitespace(value, from: cursor + 1)
                    let parameterStart = cursor
                    cursor = skippingToken(value, from: cursor)
                    guard cursor > parameterStart else { throw HTTP1Error(.invalidTransferEncoding) }
                    cursor = skippingWhitespace(value, from: cursor)
                    guard cursor < value.endIndex, value[cursor] == ByteClass.equals else {
                        throw HTTP1Error(.invalidTransferEncoding)
                    }
                    cursor = skippingWhitespace(value, from: cursor + 1)
                    let valueStart = cursor
                    if cursor < value.endIndex, value[cursor] == ByteClass.dquote {
                        guard let closed = skippingQuotedString(value, from: cursor) else {
                            throw HTTP1Error(.invalidTransferEncoding)
                        }
                        cursor = closed
                    } else {
                        cursor = skippingToken(value, from: cursor)
                        guard cursor > valueStart else { throw HTTP1Error(.invalidTransferEncoding) }
                    }
                    end = cursor
                    hasParameters = true
                }
                codings.append(Coding(name: name, hasParameters: hasParameters, text: Array(value[start..<end])))
                index = skippingWhitespace(value, from: end)
                if index == value.endIndex { break }
                guard value[index] == ByteClass.comma else { throw HTTP1Error(.invalidTransferEncoding) }
                index += 1
            }
        }
        return codings
    }

    /// The index of the first byte at or after `index` that is not SP or HTAB.
    private static func skippingWhitespace(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int {
        var index = index
        while index < bytes.endIndex, ByteClass.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The index of the first byte at or after `index` that is not a `tchar`.
    private static func skippingToken(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int {
        var index = index
        while index < bytes.endIndex, ByteClass.isTChar(bytes[index]) { index += 1 }
        return index
    }

    /// The index just past the quoted-string (RFC 9110 §5.6.4) whose opening quote is at `index`, or nil when it
    /// is not closed or holds a byte neither `qdtext` nor a `quoted-pair`.
    private static func skippingQuotedString(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int? {
        var index = index + 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == ByteClass.dquote { return index + 1 }
            if byte == ByteClass.backslash {
                guard index + 1 < bytes.endIndex, ByteClass.isQuotedPairByte(bytes[index + 1]) else { return nil }
                index += 2
            } else {
                guard ByteClass.isQDText(byte) else { return nil }
                index += 1
            }
        }
        return nil
    }

    /// The lowercased connection options of every Connection line (empty elements skipped).
    /// - Throws: `invalid_connection` for an element that is not a token.
    static func connectionOptions(_ values: FieldValues) throws(HTTP1Error) -> Set<String> {
        if values.isEmpty { return [] }
        // The usual line (`keep-alive` on nginx's every response, or `close`): a set made once, not per head.
        if values.count == 1 {
            let only = trimmed(values[0])
            if equalsIgnoringCase(only, "keep-alive") { return keepAliveOption }
            if equalsIgnoringCase(only, "close") { return closeOption }
        }
        var options: Set<String> = []
        for element in elements(values) where !element.isEmpty {
            guard isToken(element) else {
                throw HTTP1Error(.invalidConnection)
            }
            options.insert(lowercased(element))
        }
        return options
    }
}
