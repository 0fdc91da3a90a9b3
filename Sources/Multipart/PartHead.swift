/// The parsed header section of one part, as the parser emits it.
///
/// Holds only what the canonical encoder and the policy need: the form-data name and filename as text,
/// the Content-Type in canonical form, and any other headers (which the canonical output drops unless a
/// rule keeps them). Content-Disposition and Content-Transfer-Encoding are consumed by the parser.
public struct PartHead: Sendable, Hashable {
    /// Zero-based index of the part in the body.
    public var index: Int
    /// The field name (never empty, valid UTF-8, free of the unsafe characters).
    public var name: String
    /// The filename, if the part had one (possibly empty: browsers send `filename=""` for no file).
    public var filename: String?
    /// The Content-Type in canonical form (`type/subtype` lowercased, parameters normalised), if any.
    public var contentType: String?
    /// Part headers other than Content-Disposition, Content-Type and Content-Transfer-Encoding, in order.
    public var headers: [PartHeader]
    /// Offset in the body of the delimiter that opened this part.
    public var offset: Int64

    /// - Parameters:
    ///   - index: zero-based part index.
    ///   - name: the field name.
    ///   - filename: the filename, if any.
    ///   - contentType: the canonical Content-Type, if any.
    ///   - headers: other part headers.
    ///   - offset: offset of the part's delimiter in the body.
    public init(
        index: Int, name: String, filename: String? = nil, contentType: String? = nil,
        headers: [PartHeader] = [], offset: Int64 = 0
    ) {
        self.index = index
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
        self.offset = offset
    }

    /// True if the part carried a `filename` parameter (a file input), even an empty one.
    public var hasFilename: Bool { filename != nil }
}

/// A part header field other than the ones the parser interprets.
public struct PartHeader: Sendable, Hashable {
    /// The field name as sent.
    public var name: String
    /// The field value, OWS-trimmed.
    public var value: String

    /// - Parameters:
    ///   - name: field name.
    ///   - value: field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Receives the events of a ``MultipartParser``.
///
/// Events arrive in body order: for each part, one ``partHead(_:)``, zero or more ``partBody(_:offset:)``,
/// one ``partEnd()``; then one ``end()`` when the body was well-formed. ``violation(_:)`` reports checks
/// whose action is `normalize`, at the point they were detected.
public protocol MultipartHandler {
    /// A part's header section was read. The head is handed over (`consuming`): a handler that keeps it
    /// stores it without a copy.
    mutating func partHead(_ head: consuming PartHead)
    /// A head another handler keeps and lends (a filter passing on the head it decided): read it during the
    /// call. Handlers that only read heads implement this and have ``partHead(_:)`` call it; the default
    /// hands a copy to ``partHead(_:)``.
    mutating func forwardHead(_ head: borrowing PartHead)
    /// Body bytes of the current part. `bytes` points into the span passed to `parse` (or, for at most one
    /// delimiter-length run held back from the previous span, into the parser); it is valid only for the
    /// duration of the call. `offset` is the position of `bytes` in the whole body.
    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64)
    /// The current part ended (its delimiter was found).
    mutating func partEnd()
    /// The body ended well-formed (the close delimiter was seen and the input finished).
    mutating func end()
    /// A strict check fired whose action is `normalize`.
    mutating func violation(_ violation: MultipartViolation)
}

extension MultipartHandler {
    public mutating func forwardHead(_ head: borrowing PartHead) {
        partHead(copy head)
    }
}
