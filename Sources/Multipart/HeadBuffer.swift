/// The current part's header section while it is being read: field names and values (without line
/// terminators) in one reusable byte array, and a line that straddles a span edge.
///
/// Bounded by ``MultipartLimits/partHeaderBytes``; its storage is reused from part to part.
struct HeadBuffer: Sendable {
    struct Field: Sendable {
        var name: Range<Int>
        var value: Range<Int>
    }

    var bytes: [UInt8] = []
    var fields: [Field] = []
    /// The start of a line that has no terminator yet.
    var partial: [UInt8] = []
    /// Bytes of the header section so far, terminators included.
    var totalBytes = 0
    /// Header lines so far.
    var lines = 0
    /// Body offset where the current (possibly partial) line starts.
    var lineStart: Int64 = 0

    var isEmpty: Bool { totalBytes == 0 }
    var hasPartialLine: Bool { !partial.isEmpty }

    mutating func reserve(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
        fields.reserveCapacity(4)
    }

    mutating func reset(at offset: Int64) {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        partial.removeAll(keepingCapacity: true)
        totalBytes = 0
        lines = 0
        lineStart = offset
    }

    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let nameStart = bytes.count
        bytes.append(contentsOf: name)
        let valueStart = bytes.count
        bytes.append(contentsOf: value)
        fields.append(Field(name: nameStart..<valueStart, value: valueStart..<bytes.count))
    }

    /// Appends an obs-fold continuation to the last field's value, joined by one space (none if either side
    /// is empty, so that the value stays OWS-trimmed).
    mutating func continueLast(_ value: UnsafeRawBufferPointer) {
        if !value.isEmpty, !fields[fields.count - 1].value.isEmpty { bytes.append(0x20) }
        bytes.append(contentsOf: value)
        fields[fields.count - 1].value = fields[fields.count - 1].value.lowerBound..<bytes.count
    }
}
