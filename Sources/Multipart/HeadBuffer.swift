/// The current part's header section while it is being read, in one reusable byte array: the recorded field
/// names and values (without line terminators) from the front, and right after them the start of a line that
/// straddles a span edge.
///
/// Every byte it holds was counted against ``MultipartLimits/partHeaderBytes`` before it was copied (names and
/// values are never longer than the lines they came from), so the bytes in use never pass the limit; the array
/// grows by doubling up to exactly that size. It keeps its size from part to part and is addressed through
/// explicit counts, so resetting for the next part costs nothing.
struct HeadBuffer: Sendable {
    struct Field: Sendable {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// `0..<byteCount`: recorded names and values; `byteCount..<byteCount + partialCount`: the partial line.
    private(set) var bytes: [UInt8] = []
    private(set) var byteCount = 0
    private(set) var fields: [Field] = []
    private(set) var fieldCount = 0
    /// The bytes of a line that has no terminator yet, stored at `byteCount`.
    private(set) var partialCount = 0
    /// Bytes of the header section so far, terminators included.
    var totalBytes = 0
    /// Header lines so far.
    var lines = 0
    /// Body offset where the current (possibly partial) line starts.
    var lineStart: Int64 = 0

    /// The most the array grows to by doubling (``MultipartLimits/partHeaderBytes``): the parser refuses a
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

    /// Records a field whose name and value lie outside this buffer (in the span being scanned).
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        precondition(partialCount == 0, "a field recorded over a partial line")
        let nameStart = byteCount
        copy(name, at: byteCount)
        byteCount += name.count
        let valueStart = byteCount
        copy(value, at: byteCount)
        byteCount += value.count
        record(Field(name: nameStart..<valueStart, value: valueStart..<byteCount))
    }

    /// Appends an obs-fold continuation from outside this buffer to the last field's value, joined by one
    /// space (none if either side is empty, so that the value stays OWS-trimmed).
    mutating func continueLast(_ value: UnsafeRawBufferPointer) {
        precondition(partialCount == 0, "a field continued over a partial line")
        guard !value.isEmpty else { return }
        joinSpace()
        copy(value, at: byteCount)
        byteCount += value.count
        fields[fieldCount - 1].value = fields[fieldCount - 1].value.lowerBound..<byteCount
    }

    /// Appends bytes of a line that continues in the next span.
    mutating func appendPartial(_ piece: UnsafeRawBufferPointer) {
        copy(piece, at: byteCount + partialCount)
        partialCount += piece.count
    }

    /// The completed partial line, lent out with the array that holds it so that the parser can read it while it
    /// mutates itself (this buffer included: its bytes are not here until ``reattach(_:recording:)``).
    struct DetachedLine {
        fileprivate(set) var storage: [UInt8]
        let range: Range<Int>
    }

    /// Takes the array out, with the partial line's place in it; the line is no longer partial.
    mutating func detachPartialLine() -> DetachedLine {
        var storage: [UInt8] = []
        swap(&storage, &bytes)
        defer { partialCount = 0 }
        return DetachedLine(storage: storage, range: byteCount..<byteCount + partialCount)
    }

    /// Puts the array back and records the field or continuation that `action` (in offsets from the line's
    /// start) names, moving the name and value down over the line in place. Anything else records nothing.
    ///
    /// `line` is taken `inout` and left empty, so that no copy of it keeps the array shared: a shared array would be
    /// copied whole by the first write below.
    mutating func reattach(_ line: inout DetachedLine, recording action: HeaderLineAction?) {
        swap(&line.storage, &bytes)
        let start = line.range.lowerBound
        precondition(start == byteCount, "a line detached from another place")
        switch action {
        case nil, .endOfHead?:
            return
        case .field(let name, let value)?:
            // The name is the line's prefix, already at `byteCount`; the value moves down after it.
            precondition(name.lowerBound == 0 && value.lowerBound >= name.upperBound
                         && value.upperBound <= line.range.count, "field outside its line")
            byteCount += name.count
            move(from: start + value.lowerBound, count: value.count, to: byteCount)
            byteCount += value.count
            record(Field(name: start..<start + name.count, value: start + name.count..<byteCount))
        case .continuation(let value)?:
            // A folded line opens with whitespace, so the value starts past the joining space.
            precondition(value.lowerBound >= 1 && value.upperBound <= line.range.count,
                         "continuation outside its line")
            guard !value.isEmpty else { return }
            joinSpace()
            move(from: start + value.lowerBound, count: value.count, to: byteCount)
            byteCount += value.count
            fields[fieldCount - 1].value = fields[fieldCount - 1].value.lowerBound..<byteCount
        }
    }

    private mutating func record(_ field: Field) {
        if fieldCount < fields.count {
            fields[fieldCount] = field
        } else {
            fields.append(field)
        }
        fieldCount += 1
    }

    /// One space after the last value, if it has any bytes.
    private mutating func joinSpace() {
        if !fields[fieldCount - 1].value.isEmpty {
            let space: UInt8 = 0x20
            withUnsafeBytes(of: space) { copy($0, at: byteCount) }
            byteCount += 1
        }
    }

    /// Copies `source` (outside this buffer) to `offset`, growing the array by doubling up to the limit.
    @inline(__always)
    private mutating func copy(_ source: UnsafeRawBufferPointer, at offset: Int) {
        let needed = offset + source.count
        if needed > bytes.count {
            let grown = min(max(needed, bytes.count * 2, 64), max(needed, capacityLimit))
            bytes.append(contentsOf: repeatElement(0, count: grown - bytes.count))
        }
        guard source.count > 0 else { return }
        bytes.withUnsafeMutableBytes { destination in
            (destination.baseAddress! + offset).copyMemory(from: source.baseAddress!, byteCount: source.count)
        }
    }

    /// Moves `count` bytes within the array, down to `offset` (the ranges may overlap).
    private mutating func move(from source: Int, count: Int, to offset: Int) {
        guard count > 0, source != offset else { return }
        bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            (base + offset).copyMemory(from: UnsafeRawPointer(base + source), byteCount: count)
        }
    }
}

/// What a header line asks of its caller: end the head (the blank line), or, in the deferred mode, record a
/// field or an obs-fold continuation (in offsets from the line's start).
enum HeaderLineAction: Sendable {
    case endOfHead
    case field(name: Range<Int>, value: Range<Int>)
    case continuation(value: Range<Int>)
}
