#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The request `Content-Type` of a `multipart/form-data` body, parsed strictly.
///
/// Exactly one `multipart/form-data` media type and exactly one `boundary` parameter (1–70 RFC 2046
/// characters, one clean token or one clean quoted-string); no `*` or continued parameters, no duplicate
/// parameters, no whitespace around `=`. Each violation is a named ``StrictFlag``; all of them reject,
/// because a gateway and a backend that read a different boundary see different parts (Rack
/// CVE-2026-26961, Go #47602). Linear time, no backtracking.
public struct MultipartContentType: Sendable, Hashable {
    /// The boundary.
    public let boundary: Boundary

    /// Parses a Content-Type header value.
    /// - Throws: ``MultipartError`` with the flag that fired; its offset is the index in `value`.
    public static func parse(_ value: String) throws(MultipartError) -> MultipartContentType {
        var value = value  // a native String is contiguous UTF-8: parsed in place, not copied into an Array
        var outcome: Result<MultipartContentType, MultipartError>?
        value.withUTF8 { utf8 in
            outcome = Result { () throws(MultipartError) -> MultipartContentType in
                try parse(UnsafeRawBufferPointer(utf8))
            }
        }
        return try outcome!.get()
    }

    /// Parses a Content-Type header value given as bytes.
    /// - Throws: ``MultipartError`` with the flag that fired; its offset is the index in `value`.
    public static func parse(_ value: UnsafeRawBufferPointer) throws(MultipartError) -> MultipartContentType {
        if let usual = usualForm(value) { return usual }
        do {
            return try scan(value)
        } catch {
            throw MultipartError(.flag(error.flag), offset: Int64(error.offset))
        }
    }

    /// The form user agents and HTTP clients send, `multipart/form-data; boundary=` then a token boundary to the
    /// end, read with one comparison and the boundary's own one-pass check; nil for anything else, which
    /// ``scan(_:)`` reads (giving this very result for this form).
    static func usualForm(_ bytes: UnsafeRawBufferPointer) -> MultipartContentType? {
        let prefix: StaticString = "multipart/form-data; boundary="
        let count = prefix.utf8CodeUnitCount
        guard bytes.count > count, let base = bytes.baseAddress,
            memcmp(base, prefix.utf8Start, count) == 0,
            let boundary = Boundary(UnsafeRawBufferPointer(rebasing: bytes[count...])), boundary.isToken
        else { return nil }
        return MultipartContentType(boundary: boundary)
    }

    /// The full strict scan (see the type's documentation).
    static func scan(_ bytes: UnsafeRawBufferPointer) throws(ParameterScanner.Failure) -> MultipartContentType {
        let media = try ParameterScanner.mediaType(bytes)
        guard HeaderSyntax.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[media.type]), "multipart"),
            HeaderSyntax.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[media.subtype]), "form-data")
        else {
            throw ParameterScanner.Failure(flag: .notMultipartFormData, offset: media.type.lowerBound)
        }
        var scanner = ParameterScanner(bytes, start: media.end)
        // The usual header has one parameter: the set of seen names is made only for a second one.
        // The first name stays a range of the value; lowercased copies are made only once a second comes.
        var first: Range<Int>?
        var seen = Set<[UInt8]>()
        var boundary: Boundary?
        while let parameter = try scanner.next() {
            let name = UnsafeRawBufferPointer(rebasing: bytes[parameter.name])
            if ParameterScanner.isExtended(name) {
                throw ParameterScanner.Failure(flag: .parameterContinuation, offset: parameter.name.lowerBound)
            }
            if let firstName = first {
                if seen.isEmpty { seen.insert(UnsafeRawBufferPointer(rebasing: bytes[firstName]).map(HeaderSyntax.lower)) }
                guard seen.insert(name.map(HeaderSyntax.lower)).inserted else {
                    throw ParameterScanner.Failure(flag: .duplicateParameter, offset: parameter.name.lowerBound)
                }
            } else {
                first = parameter.name
            }
            if HeaderSyntax.equalsLowercase(name, "boundary") {
                guard let value = Boundary(UnsafeRawBufferPointer(rebasing: bytes[parameter.value])) else {
                    throw ParameterScanner.Failure(flag: .boundaryInvalid, offset: parameter.value.lowerBound)
                }
                boundary = value
            }
        }
        guard let boundary else {
            throw ParameterScanner.Failure(flag: .boundaryMissing, offset: bytes.count)
        }
        return MultipartContentType(boundary: boundary)
    }

    /// The canonical header value for a boundary: quoted only when the boundary is not a token.
    public static func headerValue(for boundary: Boundary) -> String {
        // Written into the string's own storage: one allocation, no byte array in between.
        String(unsafeUninitializedCapacity: headerValueCount(for: boundary)) { write(boundary, into: $0) }
    }

    /// Appends ``headerValue(for:)``'s bytes to `buffer` (a request head being written), with no string between.
    public static func appendHeaderValue(for boundary: Boundary, to buffer: inout [UInt8]) {
        let count = headerValueCount(for: boundary)
        buffer.reserveCapacity(buffer.count + count)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        buffer.withUnsafeMutableBufferPointer {
            _ = write(boundary, into: UnsafeMutableBufferPointer(rebasing: $0[start...]))
        }
    }

    private static let headerValuePrefix: StaticString = "multipart/form-data; boundary="

    private static func headerValueCount(for boundary: Boundary) -> Int {
        headerValuePrefix.utf8CodeUnitCount + boundary.bytes.count + (boundary.isToken ? 0 : 2)
    }

    /// Writes the value at the start of `buffer` (at least ``headerValueCount(for:)`` bytes); returns its length.
    private static func write(_ boundary: Boundary, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let quote: UInt8? = boundary.isToken ? nil : UInt8(ascii: "\"")
        var at = headerValuePrefix.withUTF8Buffer { buffer.initialize(fromContentsOf: $0) }
        if let quote { buffer[at] = quote; at += 1 }
        at = boundary.bytes.withUnsafeBufferPointer {
            UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: $0) + at
        }
        if let quote { buffer[at] = quote; at += 1 }
        return at
    }

    /// Creates the value for a known boundary.
    public init(boundary: Boundary) {
        self.boundary = boundary
    }
}
