import Multipart

/// A ``MultipartHandler`` that records events and checks each body event as it arrives:
/// it is not empty, it lies inside the body and equals the body's bytes there, offsets are contiguous
/// within a part, and its pointer is either inside the span being parsed (at the matching offset) or a
/// delimiter prefix shorter than the delimiter, held back from an earlier span.
public struct EventLog: MultipartHandler {
    public private(set) var events: [LoggedEvent] = []
    /// All body bytes, in order.
    public private(set) var data: [UInt8] = []
    /// For each part, the body offset of its first body byte (nil while it has none).
    public private(set) var dataStarts: [Int64?] = []

    private let body: UnsafeRawBufferPointer
    /// `CRLF--boundary` and `LF--boundary`: what held-back bytes may be a prefix of.
    private let delimiters: [[UInt8]]
    /// The span being parsed: its bytes and its offset in the body.
    private var span = UnsafeRawBufferPointer(start: nil, count: 0)
    private var spanOffset: Int64 = 0
    private var inPart = false
    private var nextBodyOffset: Int64?

    /// - Parameters:
    ///   - body: the whole body, to check body events against.
    ///   - boundary: the body's boundary.
    public init(body: UnsafeRawBufferPointer, boundary: Boundary) {
        self.body = body
        let dashes = Array("--".utf8)
        delimiters = [[13, 10] + dashes + boundary.bytes, [10] + dashes + boundary.bytes]
    }

    /// Declares the span about to be passed to the parser.
    public mutating func willParse(_ span: UnsafeRawBufferPointer, at offset: Int64) {
        self.span = span
        spanOffset = offset
    }

    public mutating func partHead(_ head: PartHead) {
        invariant(!inPart, "partHead \(head.index) before the previous part ended")
        inPart = true
        nextBodyOffset = nil
        dataStarts.append(nil)
        events.append(.head(head))
    }

    public mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        invariant(inPart, "partBody outside a part at \(offset)")
        invariant(!bytes.isEmpty, "empty partBody at \(offset)")
        let start = Int(offset)
        let end = start + bytes.count
        invariant(start >= 0 && end <= body.count, "partBody \(start)..<\(end) outside the body of \(body.count)")
        invariant(ByteSearch.equal(bytes, UnsafeRawBufferPointer(rebasing: body[start..<end])),
                  "partBody bytes differ from the body at \(start)..<\(end)")
        if let expected = nextBodyOffset {
            invariant(offset == expected, "partBody at \(offset), expected contiguous \(expected)")
        } else {
            dataStarts[dataStarts.count - 1] = offset
        }
        nextBodyOffset = offset + Int64(bytes.count)
        checkPointer(bytes, offset)

        let previous = data.count
        data.append(contentsOf: bytes)
        if case .body(let range) = events.last, range.upperBound == previous {
            events[events.count - 1] = .body(range.lowerBound..<data.count)
        } else {
            events.append(.body(previous..<data.count))
        }
    }

    private func checkPointer(_ bytes: UnsafeRawBufferPointer, _ offset: Int64) {
        let pointer = bytes.baseAddress!
        if let base = span.baseAddress, pointer >= base, pointer + bytes.count <= base + span.count {
            let expected = spanOffset + Int64(pointer - base)
            invariant(offset == expected, "partBody pointer is span offset \(expected), event says \(offset)")
            return
        }
        // Held back at a span edge and re-emitted from the delimiter pattern.
        invariant(offset < spanOffset, "partBody outside the current span at \(offset) is not from an earlier span")
        invariant(bytes.count < delimiters[0].count,
                  "held-back partBody of \(bytes.count) bytes is not shorter than the delimiter")
        invariant(delimiters.contains { ByteSearch.equal(bytes, Array($0.prefix(bytes.count))) },
                  "held-back partBody is not a delimiter prefix")
    }

    public mutating func partEnd() {
        invariant(inPart, "partEnd outside a part")
        inPart = false
        events.append(.partEnd)
    }

    public mutating func end() {
        invariant(!inPart, "end inside a part")
        events.append(.end)
    }

    public mutating func violation(_ violation: MultipartViolation) {
        invariant(violation.offset >= 0 && violation.offset <= Int64(body.count),
                  "violation \(violation.flag.rawValue) at \(violation.offset) outside the body")
        events.append(.violation(violation))
    }

    /// The bytes of a `.body` range.
    public func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> { data[range] }
}
