/// The field-line half of a message head (and of a chunked trailer section): a resumable byte state
/// machine shared by the request parser, the response parser and the chunked decoder.
///
/// It validates `*( field-line CRLF ) CRLF` strictly (RFC 9112 §5): token names, no whitespace before
/// the colon, no obs-fold, no controls other than HTAB in values, CRLF only. It never stores bytes;
/// its owner keeps them when it needs them, and the scanner records each field's offsets (relative
/// to the owner's head offset) when `recording` is on.
struct FieldSectionScanner: Sendable {
    /// What one call to ``scan(_:from:to:offset:)`` found.
    enum Outcome: Sendable {
        /// Every byte in the range was valid; the section is not finished.
        case needMore
        /// The section ended; the value is the index in the scanned buffer just past its final LF.
        case done(Int)
        /// Invalid input.
        case error(HTTP1Error)
    }

    private enum State: UInt8, Sendable {
        case lineStart
        case name
        case beforeValue
        case value
        case valueCR
        case finalCR
        case done
    }

    private var state: State = .lineStart
    /// True until the first field line ends: whitespace there is `whitespace_after_start_line`.
    private var onFirstLine: Bool
    private let afterStartLine: Bool
    private let recording: Bool
    private let maxFieldLineBytes: Int
    private let maxFieldCount: Int
    /// Early Content-Length checks (heads only; nil for trailers).
    private var contentLength: ContentLengthWatch?
    private var lineStart = 0
    private var nameEnd = 0
    private var valueStart = 0
    private var valueEnd = 0
    /// Number of field lines seen so far (counted when a name starts).
    private(set) var fieldCount = 0
    /// The recorded fields (empty unless `recording`).
    private(set) var entries: [HTTPFields.Entry] = []

    /// Creates a scanner.
    /// - Parameters:
    ///   - afterStartLine: Whether a start line precedes the section (a head) or not (trailers).
    ///   - recording: Whether to record field offsets.
    ///   - maxFieldLineBytes: Longest accepted field line, without CRLF.
    ///   - maxFieldCount: Most accepted field lines.
    ///   - checksContentLength: Whether to refuse bad or duplicate Content-Length lines as they arrive.
    init(afterStartLine: Bool, recording: Bool, maxFieldLineBytes: Int, maxFieldCount: Int, checksContentLength: Bool) {
        self.contentLength = checksContentLength ? ContentLengthWatch() : nil
        self.afterStartLine = afterStartLine
        self.onFirstLine = true
        self.recording = recording
        self.maxFieldLineBytes = maxFieldLineBytes
        self.maxFieldCount = maxFieldCount
    }

    /// Records into `list` (emptied, its capacity kept) when the scanner has no list of its own yet.
    mutating func adopt(_ list: consuming [HTTPFields.Entry]) {
        guard entries.capacity == 0 else { return }
        entries = list
    }

    /// Takes the recorded entries, leaving the scanner's list empty.
    mutating func takeEntries() -> [HTTPFields.Entry] {
        defer { entries = [] }
        return entries
    }

    /// Scans `bytes[start..<end]`, whose first byte sits at head offset `offset`.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, offset: Int) -> Outcome {
        let delta = offset - start  // head offset of bytes[i] is i + delta
        var index = start
        while index < end {
            let byte = bytes[index]
            let position = index + delta
            switch state {
            case .lineStart:
                if let next = wholeLine(bytes, at: index, end: end, delta: delta) {
                    index = next
                    continue
                }
                if let error = lineStartByte(byte, at: position) {
                    return .error(error)
                }
            case .name:
                if ByteClass.isTChar(byte) {
                    // Fast run: the rest of the name's tchars in this buffer, up to the line limit.
                    let limit = min(end, lineStart + maxFieldLineBytes - delta)
                    var runEnd = index + 1
                    while runEnd < limit, ByteClass.isTChar(bytes[runEnd]) { runEnd += 1 }
                    if runEnd - 1 > index {
                        contentLength?.nameBytes(bytes, from: index, to: runEnd - 1)
                        index = runEnd - 1
                    }
                    let lastPosition = index + delta
                    if lastPosition - lineStart >= maxFieldLineBytes {
                        return .error(HTTP1Error(.fieldLineTooLong, offset: lastPosition))
                    }
                    contentLength?.nameByte(bytes[index])
                } else if byte == ByteClass.colon {
                    if position - lineStart >= maxFieldLineBytes {
                        return .error(HTTP1Error(.fieldLineTooLong, offset: position))
                    }
                    if let error = contentLength?.colon(lineStart: lineStart) {
                        return .error(error)
                    }
                    nameEnd = position
                    state = .beforeValue
                } else {
                    return .error(HTTP1Error(nameError(byte), offset: position))
                }
            case .beforeValue, .value:
                if byte == ByteClass.cr {
                    if state == .beforeValue {
                        valueStart = position
                        valueEnd = position
                    }
                    if let error = contentLength?.lineEnd(at: position) {
                        return .error(error)
                    }
                    state = .valueCR
                } else if state == .value, contentLength?.isActive != true, ByteClass.isFieldVChar(byte) {
                    // Fast run: the value's bytes in this buffer up to the line limit, tracking the last
                    // non-whitespace one; the byte that stops the run is handled on the next turn.
                    let limit = min(end, lineStart + maxFieldLineBytes - delta)
                    if index >= limit {
                        return .error(HTTP1Error(.fieldLineTooLong, offset: position))
                    }
                    var last = index
                    var runEnd = index + 1
                    // Eight bytes at a time while none is a control (HTAB included) or DEL: those are all
                    // VCHAR, obs-text or SP, and the last one that is not SP ends the value so far.
                    while limit - runEnd >= 8 {
                        let word = bytes.loadUnaligned(fromByteOffset: runEnd, as: UInt64.self)
                        guard !Self.hasControlOrDelete(word) else { break }
                        var top = 7
                        while top >= 0, bytes[runEnd + top] == ByteClass.sp { top -= 1 }
                        if top >= 0 { last = runEnd + top }
                        runEnd += 8
                    }
                    while runEnd < limit {
                        let next = bytes[runEnd]
                        if ByteClass.isFieldVChar(next) {
                            last = runEnd
                        } else if !ByteClass.isWhitespace(next) {
                            break
                        }
                        runEnd += 1
                    }
                    valueEnd = last + delta + 1
                    index = runEnd
                    continue
                } else if ByteClass.isFieldVChar(byte) || ByteClass.isWhitespace(byte) {
                    if position - lineStart >= maxFieldLineBytes {
                        return .error(HTTP1Error(.fieldLineTooLong, offset: position))
                    }
                    if let error = contentLength?.valueByte(byte, at: position) {
                        return .error(error)
                    }
                    if !ByteClass.isWhitespace(byte) {
                        if state == .beforeValue {
                            valueStart = position
                            state = .value
                        }
                        valueEnd = position + 1
                    }
                } else {
                    return .error(HTTP1Error(byte == ByteClass.lf ? .bareLF : .invalidFieldValue, offset: position))
                }
            case .valueCR:
                guard byte == ByteClass.lf else {
                    return .error(HTTP1Error(.bareCR, offset: position - 1))
                }
                if recording {
                    if entries.isEmpty { entries.reserveCapacity(16) }
                    entries.append(
                        HTTPFields.Entry(
                            nameStart: lineStart,
                            nameEnd: nameEnd,
                            valueStart: valueStart,
                            valueEnd: valueEnd
                        )
                    )
                }
                onFirstLine = false
                state = .lineStart
            case .finalCR:
                guard byte == ByteClass.lf else {
                    return .error(HTTP1Error(.bareCR, offset: position - 1))
                }
                state = .done
                return .done(index + 1)
            case .done:
                preconditionFailure("FieldSectionScanner used after the section ended")
            }
            index += 1
        }
        return .needMore
    }

    /// A whole ordinary field line lying in the buffer from `start`, checked and recorded in one pass: the index
    /// just past its LF. nil when the line is not complete here or is anything but ordinary (an error, the
    /// section's end, a Content-Length line the watch must see, a limit reached): the byte machine then takes the
    /// line from its first byte, as if this had not run (nothing is changed before the line is known good).
    @inline(__always)
    private mutating func wholeLine(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int, delta: Int) -> Int? {
        guard fieldCount < maxFieldCount else { return nil }
        let limit = min(end, start + maxFieldLineBytes)  // the line's CR must come before this
        var index = start
        // Eight bytes at a time while all are letters, digits or `-` (what field names are made of); the byte
        // that stops a word, and the name's last few bytes, go through the whole tchar test.
        while limit - index >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let others = Self.nonNameBytes(word)
            guard others == 0 else {
                index += others.trailingZeroBitCount >> 3
                break
            }
            index += 8
        }
        while index < limit, ByteClass.isTChar(bytes[index]) { index += 1 }
        let nameLength = index - start
        guard nameLength > 0, index < limit, bytes[index] == ByteClass.colon else { return nil }
        // A Content-Length line is taken here only when the watch accepts it whole (the head's first, all
        // digits); any other goes byte by byte, where a duplicate fails at its colon and a bad value at its byte.
        let isContentLength = contentLength != nil && nameLength == 14 && Self.isContentLength(bytes, at: start)
        let nameEnd = index
        index += 1
        while index < limit, ByteClass.isWhitespace(bytes[index]) { index += 1 }
        let valueStart = index
        var valueEnd = index  // just past the last byte that is not whitespace
        while limit - index >= 8 {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            guard !Self.hasControlOrDelete(word) else { break }
            var top = 7
            while top >= 0, bytes[index + top] == ByteClass.sp { top -= 1 }
            if top >= 0 { valueEnd = index + top + 1 }
            index += 8
        }
        while index < limit {
            let byte = bytes[index]
            if ByteClass.isFieldVChar(byte) {
                valueEnd = index + 1
            } else if !ByteClass.isWhitespace(byte) {
                break
            }
            index += 1
        }
        // CR LF, both in the buffer, the CR within the line limit.
        guard index < limit, index + 1 < end, bytes[index] == ByteClass.cr, bytes[index + 1] == ByteClass.lf else {
            return nil
        }
        if isContentLength, contentLength?.acceptsWholeLine(bytes, from: valueStart, to: valueEnd) != true {
            return nil
        }
        fieldCount += 1
        if recording {
            if entries.isEmpty { entries.reserveCapacity(16) }
            entries.append(
                HTTPFields.Entry(
                    nameStart: start + delta, nameEnd: nameEnd + delta, valueStart: valueStart + delta,
                    valueEnd: valueEnd + delta))
        }
        onFirstLine = false
        return index + 2
    }

    /// Whether the 14 bytes at `start` spell `content-length` (any case; they are tchars).
    @inline(__always)
    private static func isContentLength(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        let name: StaticString = "content-length"
        let wanted = UnsafeRawPointer(name.utf8Start)
        let fold: UInt64 = 0x2020_2020_2020_2020
        return bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self) | fold
            == wanted.loadUnaligned(as: UInt64.self)
            && bytes.loadUnaligned(fromByteOffset: start + 6, as: UInt64.self) | fold
                == wanted.loadUnaligned(fromByteOffset: 6, as: UInt64.self)
    }

    /// Handles the first byte of a line: the end of the section, or the first byte of a name.
    private mutating func lineStartByte(_ byte: UInt8, at position: Int) -> HTTP1Error? {
        if ByteClass.isTChar(byte) {
            guard fieldCount < maxFieldCount else {
                return HTTP1Error(.tooManyFields, offset: position)
            }
            guard maxFieldLineBytes > 0 else {
                return HTTP1Error(.fieldLineTooLong, offset: position)
            }
            fieldCount += 1
            contentLength?.nameStart(byte)
            lineStart = position
            state = .name
            return nil
        }
        switch byte {
        case ByteClass.cr:
            state = .finalCR
            return nil
        case ByteClass.lf:
            return HTTP1Error(.bareLF, offset: position)
        case ByteClass.sp, ByteClass.htab:
            if onFirstLine {
                return HTTP1Error(afterStartLine ? .whitespaceAfterStartLine : .obsFold, offset: position)
            }
            return HTTP1Error(.obsFold, offset: position)
        case ByteClass.colon:
            return HTTP1Error(.emptyFieldName, offset: position)
        default:
            return HTTP1Error(.invalidFieldName, offset: position)
        }
    }

    /// The high bit of each byte of `word` (the first byte in the lowest bits) that is not an ASCII letter, digit
    /// or `-`; 0 when all eight are. Each range test adds a per-byte constant to the byte's low seven bits, which
    /// never carries into the next byte; bytes with the top bit set are flagged on their own.
    @inline(__always)
    static func nonNameBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let low = word & ~highs
        /// High bit set where the byte of `value` (each below 0x80) lies in `first...last`.
        @inline(__always) func within(_ value: UInt64, _ first: UInt64, _ last: UInt64) -> UInt64 {
            let atLeastFirst = value &+ ones &* (0x80 - first)
            let aboveLast = value &+ ones &* (0x7F - last)
            return atLeastFirst & ~aboveLast & highs
        }
        let letter = within(low | ones &* 0x20, 0x61, 0x7A)  // a-z, and A-Z folded onto it
        let digit = within(low, 0x30, 0x39)
        let dash = within(low, 0x2D, 0x2D)
        return ((letter | digit | dash) ^ highs) | (word & highs)
    }

    /// Whether one of the eight bytes of `word` is below 0x20 or is 0x7F (exact: the borrows of the two
    /// subtractions only ever flag bytes above one that is flagged rightly).
    @inline(__always)
    static func hasControlOrDelete(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        let isDelete = (delete &- ones) & ~delete & highs
        return (below20 | isDelete) != 0
    }

    /// The error for a non-tchar, non-colon byte inside a field name.
    private func nameError(_ byte: UInt8) -> HTTP1Error.Code {
        switch byte {
        case ByteClass.sp, ByteClass.htab: return .whitespaceBeforeColon
        case ByteClass.cr: return .missingColon
        case ByteClass.lf: return .bareLF
        default: return .invalidFieldName
        }
    }
}
