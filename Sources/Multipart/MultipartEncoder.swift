/// Writes `multipart/form-data` in partgate's canonical form (DESIGN.md, "Canonical output").
///
/// `--B CRLF`, `Content-Disposition: form-data; name="…"[; filename="…"]`, an optional `Content-Type`,
/// kept headers, a blank line, the data, then `CRLF--B CRLF` before each later part and `CRLF--B--CRLF`
/// at the end. No preamble, no epilogue, no `filename*`, no Content-Transfer-Encoding; names and
/// filenames in UTF-8 inside plain quoted-strings; header names in one canonical case. The boundary is
/// fresh per body from the system CSPRNG unless one is given (tests only).
public struct MultipartEncoder: Sendable {
    /// The boundary this encoder writes.
    public let boundary: Boundary
    /// Parts whose head has been written.
    public private(set) var partsWritten = 0
    /// `CRLF--B CRLF`; the opening delimiter is the same without its first two bytes (one array per encoder).
    private var nextDelimiter: [UInt8]
    private var openingDelimiter: ArraySlice<UInt8> { nextDelimiter[2...] }

    /// - Parameter boundary: the boundary; a fresh random one by default.
    public init(boundary: Boundary = .random()) {
        self.init(boundary: boundary, storage: [])
    }

    /// An encoder that writes its delimiter into `old`'s storage (no allocation for a boundary that fits); `old`
    /// is left without one and must not be used again.
    public init(boundary: Boundary, recycling old: inout MultipartEncoder) {
        var storage: [UInt8] = []
        swap(&storage, &old.nextDelimiter)
        self.init(boundary: boundary, storage: storage)
    }

    private init(boundary: Boundary, storage: [UInt8]) {
        self.boundary = boundary
        var next = storage
        next.removeAll(keepingCapacity: true)
        next.reserveCapacity(boundary.bytes.count + 6)
        next.append(13)
        next.append(10)
        next.append(UInt8(ascii: "-"))
        next.append(UInt8(ascii: "-"))
        next.append(contentsOf: boundary.bytes)
        next.append(13)
        next.append(10)
        nextDelimiter = next
    }

    /// The request `Content-Type` value announcing this encoder's boundary.
    public var contentType: String { MultipartContentType.headerValue(for: boundary) }

    /// Writes the delimiter and header section of the next part. Its data follows through the sink directly.
    /// - Parameters:
    ///   - part: name, filename, Content-Type and kept headers (``PartHead/index`` and offset are ignored).
    ///   - sink: where to write.
    /// - Throws: ``MultipartEncodingError`` if a value has no safe spelling; nothing is written then.
    public mutating func writePartHead(_ part: PartHead, into sink: inout some ByteSink) throws(MultipartEncodingError) {
        let bytes = try Self.encodedHead(part, first: partsWritten == 0, opening: openingDelimiter,
                                         next: nextDelimiter)
        sink.write(bytes)
        partsWritten += 1
    }

    /// Appends the delimiter and header section of the next part to a byte array, in place (no array per
    /// head, as the generic sink takes).
    /// - Throws: ``MultipartEncodingError`` if a value has no safe spelling; nothing is appended then.
    public mutating func writePartHead(_ part: PartHead, into bytes: inout [UInt8]) throws(MultipartEncodingError) {
        try Self.validate(part)
        bytes.reserveCapacity(bytes.count + Self.headCapacity(part, delimiter: nextDelimiter.count))
        if partsWritten == 0 {
            bytes.append(contentsOf: openingDelimiter)
        } else {
            bytes.append(contentsOf: nextDelimiter)
        }
        Self.appendHead(part, to: &bytes)
        partsWritten += 1
    }

    /// Appends the close delimiter to a byte array, in place.
    public func writeEnd(into bytes: inout [UInt8]) {
        if partsWritten > 0 {
            bytes.append(contentsOf: nextDelimiter[0..<(nextDelimiter.count - 2)])
        } else {
            bytes.append(contentsOf: nextDelimiter[2..<(nextDelimiter.count - 2)])
        }
        bytes.append(UInt8(ascii: "-"))
        bytes.append(UInt8(ascii: "-"))
        bytes.append(13)
        bytes.append(10)
    }

    /// Writes the close delimiter.
    public func writeEnd(into sink: inout some ByteSink) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(boundary.bytes.count + 8)
        if partsWritten > 0 {
            bytes.append(13)
            bytes.append(10)
        }
        bytes.append(UInt8(ascii: "-"))
        bytes.append(UInt8(ascii: "-"))
        bytes.append(contentsOf: boundary.bytes)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(UInt8(ascii: "-"))
        bytes.append(13)
        bytes.append(10)
        sink.write(bytes)
    }

    /// The exact length of a body with these parts and data lengths (what a `Content-Length` must say).
    /// - Throws: ``MultipartEncodingError`` if a part has no safe spelling.
    public func encodedLength(of parts: [(head: PartHead, dataLength: Int64)]) throws(MultipartEncodingError) -> Int64 {
        var copy = MultipartEncoder(boundary: boundary)
        var counter = ByteCounter()
        for part in parts {
            try copy.writePartHead(part.head, into: &counter)
        }
        copy.writeEnd(into: &counter)
        return parts.reduce(counter.count) { $0 + $1.dataLength }
    }

    private static func encodedHead(
        _ part: PartHead, first: Bool, opening: ArraySlice<UInt8>, next: [UInt8]
    ) throws(MultipartEncodingError) -> [UInt8] {
        try validate(part)
        var out: [UInt8] = first ? Array(opening) : next
        out.reserveCapacity(headCapacity(part, delimiter: out.count))
        appendHead(part, to: &out)
        return out
    }

    /// Room for a head: the delimiter, the fixed text and the values.
    private static func headCapacity(_ part: PartHead, delimiter: Int) -> Int {
        delimiter + 64 + part.name.utf8.count + (part.filename?.utf8.count ?? 0) + (part.contentType?.utf8.count ?? 0)
    }

    /// Refuses a head with a value that has no safe spelling, before anything of it is written.
    private static func validate(_ part: PartHead) throws(MultipartEncodingError) {
        guard !part.name.isEmpty else { throw MultipartEncodingError(.emptyName, value: part.name) }
        guard Self.isEncodable(part.name) else { throw MultipartEncodingError(.unsafeName, value: part.name) }
        if let filename = part.filename, !Self.isEncodable(filename) {
            throw MultipartEncodingError(.unsafeFilename, value: filename)
        }
        if let contentType = part.contentType, contentType.isEmpty || Self.hasControl(contentType) {
            throw MultipartEncodingError(.invalidHeaderValue, value: contentType)
        }
        for header in part.headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(HeaderSyntax.isTokenChar),
                !Self.reservedFieldNames.contains(header.name.lowercased())
            else {
                throw MultipartEncodingError(.invalidHeaderName, value: header.name)
            }
            guard !header.value.utf8.contains(where: HeaderSyntax.isControl) else {
                throw MultipartEncodingError(.invalidHeaderValue, value: header.value)
            }
        }
    }

    /// Appends a validated head after its delimiter: the Content-Disposition and Content-Type lines are sized,
    /// written on the stack and appended to `out` in one copy (appended piece by piece, each piece paid a
    /// uniqueness and a capacity check and a call to copy a few bytes).
    private static func appendHead(_ part: PartHead, to out: inout [UInt8]) {
        let disposition: StaticString = "Content-Disposition: form-data; name=\""
        let filenameParameter: StaticString = "; filename=\""
        let contentTypeName: StaticString = "Content-Type: "
        withUTF8(part.name) { name in
            withOptionalUTF8(part.filename) { filename in
                withOptionalUTF8(part.contentType) { contentType in
                    var count = disposition.utf8CodeUnitCount + name.count + 3  // `"` CRLF
                    if let filename { count += filenameParameter.utf8CodeUnitCount + filename.count + 1 }
                    if let contentType { count += contentTypeName.utf8CodeUnitCount + contentType.count + 2 }
                    if part.headers.isEmpty { count += 2 }  // the CRLF that ends the head
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                        var cursor = buffer.baseAddress!
                        func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                            guard let base = bytes.baseAddress else { return }
                            cursor.initialize(from: base, count: bytes.count)
                            cursor += bytes.count
                        }
                        func put(_ literal: StaticString) {
                            cursor.initialize(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
                            cursor += literal.utf8CodeUnitCount
                        }
                        func put(_ byte: UInt8) {
                            cursor.initialize(to: byte)
                            cursor += 1
                        }
                        put(disposition)
                        put(name)
                        put(UInt8(ascii: "\""))
                        if let filename {
                            put(filenameParameter)
                            put(filename)
                            put(UInt8(ascii: "\""))
                        }
                        put(13)
                        put(10)
                        if let contentType {
                            put(contentTypeName)
                            put(contentType)
                            put(13)
                            put(10)
                        }
                        if part.headers.isEmpty {
                            put(13)
                            put(10)
                        }
                        assert(cursor == buffer.baseAddress! + count)
                        out.append(contentsOf: UnsafeBufferPointer(buffer))
                    }
                }
            }
        }
        guard !part.headers.isEmpty else { return }
        for header in part.headers {
            out += canonicalFieldName(header.name)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: header.value.utf8)
            out.append(contentsOf: Self.crlf)
        }
        out.append(contentsOf: Self.crlf)
    }

    private static let crlf: [UInt8] = [13, 10]

    /// Whether a name or filename can be written inside a quoted-string: none of the unsafe sequences, no
    /// control character. Checked over the String's contiguous UTF-8, not its UTF-8 view byte by byte.
    private static func isEncodable(_ value: String) -> Bool {
        withUTF8(value) { utf8 in
            UnsafeName.isSafe(UnsafeRawBufferPointer(utf8)) && !utf8.contains(where: HeaderSyntax.isControl)
        }
    }

    /// Whether `value` holds a control character.
    private static func hasControl(_ value: String) -> Bool {
        withUTF8(value) { $0.contains(where: HeaderSyntax.isControl) }
    }

    /// A String's contiguous UTF-8, read where it lies (a native string's; `withUTF8` needs a mutable copy,
    /// a reference count each way).
    @inline(__always)
    private static func withUTF8<Result>(_ value: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = value.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = value
        return copy.withUTF8(body)
    }

    /// An optional String's contiguous UTF-8 (nil for nil), read where it lies.
    @inline(__always)
    private static func withOptionalUTF8<Result>(
        _ value: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result {
        guard let value else { return body(nil) }
        return withUTF8(value) { body($0) }
    }

    /// Header names the encoder writes itself (or never): a kept header may not use them.
    static let reservedFieldNames: Set<String> = ["content-disposition", "content-type", "content-transfer-encoding"]

    /// `x-FOO-bar` → `X-Foo-Bar`: one canonical case for header names.
    static func canonicalFieldName(_ name: String) -> [UInt8] {
        var upper = true
        return name.utf8.map { byte in
            defer { upper = byte == UInt8(ascii: "-") }
            let lower = HeaderSyntax.lower(byte)
            return upper && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") ? lower - 32 : lower
        }
    }
}

/// A part the canonical encoder cannot write.
public struct MultipartEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: String, Hashable, Sendable {
        case emptyName = "empty_name"
        case unsafeName = "unsafe_name"
        case unsafeFilename = "unsafe_filename"
        case invalidHeaderName = "invalid_header_name"
        case invalidHeaderValue = "invalid_header_value"
    }

    /// What is wrong.
    public var code: Code
    /// The offending value.
    public var value: String

    /// - Parameters:
    ///   - code: what is wrong.
    ///   - value: the offending value.
    public init(_ code: Code, value: String) {
        self.code = code
        self.value = value
    }

    public var description: String { "\(code.rawValue): \(value.debugDescription)" }
}
