/// The current part's header section while it is being read: field names and values (without line
/// terminators) in one reusable byte array, and a line that straddles a span edge.
///
/// The bytes it holds are bounded by ``MultipartLimits/partHeaderBytes``; each of its two arrays grows by doubling
/// to at most that size, so together they take at most twice the limit. The arrays keep their size from part to
/// part and are addressed through explicit counts, so resetting for the next part costs nothing.
struct HeadBuffer: Sendable {
    struct Field: Sendable {
        var name: Range<Int>
        var value: Range<Int>
    }

    private(set) var bytes: [UInt8] = []
    private(set) var byteCount = 0
    private(set) var fields: [Field] = []
    private(set) var fieldCount = 0
    /// The start of a line that has no terminator yet.
    private(set) var partial: [UInt8] = []
    private(set) var partialCount = 0
    /// Bytes of the header section so far, terminators included.
    var totalBytes = 0
    /// Header lines so far.
    var lines = 0
    /// Body offset where the current (possibly partial) line starts.
    var lineStart: Int64 = 0

    /// The most either array grows to by doubling (``MultipartLimits/partHeaderBytes``): the parser refuses a
    /// section past the limit before it copies, so a copy never needs more, and doubling stops there.
    let capacityLimit: Int

    init(capacityLimit: Int = .max) {
        self.capacityLimit = capacityLimit
    }

    var isEmpty: Bool { totalBytes == 0 }
    var hasPartialLine: Bool { partialCount > 0 }
    var hasFields: Bool { fieldCount > 0 }

    @inline(__always)
    mutating func reset(at offset: Int64) {
        byteCount = 0
        fieldCount = 0
        partialCount = 0
        totalBytes = 0
        lines = 0
        lineStart = offset
    }

    /// The recorded fields, in order.
    var recordedFields: ArraySlice<Field> { fields[0..<fieldCount] }

    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let nameStart = byteCount
        copy(name, into: &bytes, at: &byteCount)
        let valueStart = byteCount
        copy(value, into: &bytes, at: &byteCount)
        let field = Field(name: nameStart..<valueStart, value: valueStart..<byteCount)
        if fieldCount < fields.count {
            fields[fieldCount] = field
        } else {
            fields.append(field)
        }
        fieldCount += 1
    }

    /// Appends an obs-fold continuation to the last field's value, joined by one space (none if either side
    /// is empty, so that the value stays OWS-trimmed).
    mutating func continueLast(_ value: UnsafeRawBufferPointer) {
        guard !value.isEmpty else { return }
        let last = fields[fieldCount - 1].value
        if !last.isEmpty {
            let space: UInt8 = 0x20
            withUnsafeBytes(of: space) { copy($0, into: &bytes, at: &byteCount) }
        }
        copy(value, into: &bytes, at: &byteCount)
        fields[fieldCount - 1].value = last.lowerBound..<byteCount
    }

    /// Appends bytes of a line that continues in the next span.
    mutating func appendPartial(_ piece: UnsafeRawBufferPointer) {
        copy(piece, into: &partial, at: &partialCount)
    }

    /// Hands out the completed partial line (valid bytes: `0..<count`) and forgets it.
    mutating func takePartial() -> (bytes: [UInt8], count: Int) {
        defer { partialCount = 0 }
        return (partial, partialCount)
    }

    @inline(__always)
    private func copy(_ source: UnsafeRawBufferPointer, into array: inout [UInt8], at count: inout Int) {
        let needed = count + source.count
        if needed > array.count {
            let grown = min(max(needed, array.count * 2, 64), max(needed, capacityLimit))
            array.append(contentsOf: repeatElement(0, count: grown - array.count))
        }
        guard source.count > 0 else { return }
        array.withUnsafeMutableBytes { destination in
            (destination.baseAddress! + count).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
        count = needed
    }
}
