/// Reads the `charset` parameter of a part's canonical Content-Type, and checks it and `_charset_` fields against
/// a route's `charsets:` allow-list (utf-7 and EBCDIC charsets are WAF bypasses: CRS CVE-2022-39955/39956).
enum PartCharset {
    /// The field name whose value names the form's charset (RFC 7578 §4.6), compared ASCII case-insensitively.
    static let fieldName = "_charset_"

    /// The `charset` value of a canonical Content-Type (`type/subtype; name=value; name="quoted"`), lower-cased
    /// and unquoted; nil when there is none.
    /// - Parameter contentType: the part's Content-Type as the parser canonicalised it.
    static func charset(in contentType: String) -> String? {
        // Most types carry no parameter (`image/png`): no copy of their bytes.
        guard contentType.firstUTF8Offset(of: UInt8(ascii: ";")) != nil else { return nil }
        let bytes = Array(contentType.utf8)
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
        while index < bytes.count {
            // At a ';': skip it and spaces, read the name up to '='.
            index += 1
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "=") { index += 1 }
            let name = bytes[nameStart..<index]
            index += 1
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ";") {
                    value.append(bytes[index])
                    index += 1
                }
            }
            if name.count == 7, String(decoding: name, as: UTF8.self).lowercased() == "charset" {
                return String(decoding: value, as: UTF8.self).lowercased()
            }
        }
        return nil
    }

    /// Whether a part is a `_charset_` field (ASCII case-insensitive, filename or not).
    /// Whether a field's Content-Type says something a backend needs: `text/plain` with a charset other than
    /// UTF-8 and US-ASCII (what backends assume for a field without one). Every other field Content-Type is left
    /// out of the forwarded part.
    static func mustForward(_ contentType: String) -> Bool {
        guard PartEvaluator.essence(of: contentType) == "text/plain", let charset = charset(in: contentType) else {
            return false
        }
        return charset != "utf-8" && charset != "us-ascii"
    }

    static func isCharsetField(_ name: String) -> Bool {
        name.utf8.count == 9 && name.lowercased() == fieldName
    }

    /// The value of a `_charset_` field as the allow-list compares it: lower-cased, nothing trimmed.
    static func fieldValue(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).lowercased()
    }
}
