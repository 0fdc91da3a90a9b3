/// Canonicalises a part's Content-Type: `type/subtype` lowercased, parameter names lowercased, values
/// as a token when they are one, otherwise as a quoted-string. Duplicate or `*` parameters are rejected
/// (two `charset` parameters are a known WAF bypass, CRS PR #2571).
enum PartContentType {
    struct Canonical {
        var value: String
        var isMultipart: Bool
    }

    static func canonical(_ bytes: UnsafeRawBufferPointer) throws(ParameterScanner.Failure) -> Canonical {
        let media: (type: Range<Int>, subtype: Range<Int>, end: Int)
        do {
            media = try ParameterScanner.mediaType(bytes)
        } catch {
            throw ParameterScanner.Failure(flag: .partContentTypeSyntax, offset: error.offset)
        }
        if bytes[media.end...].allSatisfy(HeaderSyntax.isWhitespace) {
            // No parameters (the usual `image/png`): the value is the media type lowercased, written straight
            // into the string (no byte array in between), as the loop below writes it.
            let start = media.type.lowerBound
            let value = String(unsafeUninitializedCapacity: media.end - start) { buffer in
                for index in start..<media.end { buffer[index - start] = HeaderSyntax.lower(bytes[index]) }
                return media.end - start
            }
            let isMultipart = HeaderSyntax.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[media.type]), "multipart")
            return Canonical(value: value, isMultipart: isMultipart)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for byte in bytes[media.type] { out.append(HeaderSyntax.lower(byte)) }
        out.append(UInt8(ascii: "/"))
        for byte in bytes[media.subtype] { out.append(HeaderSyntax.lower(byte)) }
        let isMultipart = HeaderSyntax.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[media.type]), "multipart")
        var scanner = ParameterScanner(bytes, start: media.end)
        var seen = Set<[UInt8]>()  // not an array: `contains` on one made many parameters quadratic
        do throws(ParameterScanner.Failure) {
            while let parameter = try scanner.next() {
                let name = bytes[parameter.name].map(HeaderSyntax.lower)
                if name.contains(UInt8(ascii: "*")) {
                    throw ParameterScanner.Failure(flag: .parameterContinuation, offset: parameter.name.lowerBound)
                }
                guard seen.insert(name).inserted else {
                    throw ParameterScanner.Failure(flag: .duplicateParameter, offset: parameter.name.lowerBound)
                }
                out.append(contentsOf: "; ".utf8)
                out.append(contentsOf: name)
                out.append(UInt8(ascii: "="))
                let value = bytes[parameter.value]
                if !value.isEmpty, value.allSatisfy(HeaderSyntax.isTokenChar) {
                    out.append(contentsOf: value)
                } else {
                    out.append(UInt8(ascii: "\""))
                    out.append(contentsOf: value)
                    out.append(UInt8(ascii: "\""))
                }
            }
        } catch {
            let flag: StrictFlag = error.flag == .contentTypeSyntax ? .partContentTypeSyntax : error.flag
            throw ParameterScanner.Failure(flag: flag, offset: error.offset)
        }
        return Canonical(value: String(decoding: out, as: UTF8.self), isMultipart: isMultipart)
    }
}
