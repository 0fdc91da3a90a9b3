/// A strict, resumable response head parser for the upstream side (RFC 9112 §4, §5).
///
/// Same contract as ``RequestHeadParser``: feed spans until `.complete(head, consumed:)`; only head
/// bytes are copied, bounded by ``HeadLimits``. Field lines follow exactly the request rules (no
/// obs-fold: RFC 9112 §5.2 lets a proxy refuse it with 502). The status line is
/// `HTTP-version SP 3DIGIT SP reason-phrase CRLF`; an absent reason phrase with or without its SP
/// (`HTTP/1.1 301` CRLF) is tolerated because common servers send it and it has no framing effect.
/// Empty lines before the status line are skipped (servers that add CRLF after a body exist). After
/// an interim (1xx) head, feed the following bytes again: another head follows.
public struct ResponseHeadParser: Sendable {
    private enum State: UInt8, Sendable {
        case leadingLine
        case leadingCR
        case version
        case status
        case afterStatus
        case reason
        case lineCR
        case fields
        case failed
    }

    /// The limits this parser enforces.
    public let limits: HeadLimits

    private var state: State = .leadingLine
    private var storage: [UInt8] = []
    private var position = 0
    private var lineStart = 0
    private var major: UInt8 = 0
    private var minor: UInt8 = 0
    private var status = 0
    private var reasonStart = 0
    private var reasonEnd = 0
    private var scanner: FieldSectionScanner
    private var failure: HTTP1Error?

    /// Creates a parser.
    /// - Parameter limits: Size and count limits for each head.
    public init(limits: HeadLimits = HeadLimits()) {
        self.limits = limits
        self.scanner = FieldSectionScanner(
            afterStartLine: true,
            recording: true,
            maxFieldLineBytes: limits.maxFieldLineBytes,
            maxFieldCount: limits.maxFieldCount,
            checksContentLength: true
        )
    }

    /// Whether no byte of a new head has been received (only complete empty lines, if anything).
    public var isIdle: Bool { state == .leadingLine }

    /// Takes a finished head's field buffers for the next head to fill, so that a keep-alive connection's next
    /// head allocates neither: only while no byte of a head was received and the parser has no buffer yet, and
    /// only buffers within ``HTTPFields/maxRecycledBytes``. Buffers something else still holds are copied on the
    /// first write (an allocation, as without them).
    public mutating func recycle(_ fields: consuming HTTPFields) {
        guard state == .leadingLine, position == 0, storage.capacity == 0, fields.isRecyclable else { return }
        let buffers = fields.takeBuffers()
        storage = buffers.storage
        scanner.adopt(buffers.entries)
    }

    /// Forgets any partial head or failure.
    public mutating func reset() {
        self = ResponseHeadParser(limits: limits)
    }

    /// Reports the end of input: nil at a message boundary, `truncated_head` inside a head.
    public func finish() -> HTTP1Error? {
        if let failure {
            return failure
        }
        return isIdle ? nil : HTTP1Error(.truncatedHead, offset: position)
    }

    /// Parses the next span of input.
    /// - Parameter span: Bytes following those already fed.
    /// - Returns: `.needMore`, `.complete(head, consumed:)` or `.error`.
    public mutating func feed(_ span: UnsafeRawBufferPointer) -> HeadParseResult<ResponseHead> {
        if let failure {
            return .error(failure)
        }
        let base = position
        let end = min(span.count, limits.maxHeadBytes - base)
        var index = 0
        if state == .leadingLine, base == 0, let lineEnd = wholeStatusLine(span, end: end) {
            index = lineEnd
        }
        while index < end, state != .fields {
            if let error = statusLineByte(span[index], offset: base + index) {
                return fail(error)
            }
            index += 1
        }
        if state == .fields, index < end {
            switch scanner.scan(span, from: index, to: end, offset: base + index) {
            case .needMore:
                index = end
            case .done(let headEnd):
                storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[0..<headEnd]))
                var head = ResponseHead(
                    version: version,
                    status: status,
                    fields: HTTPFields(storage: storage, entries: scanner.takeEntries())
                )
                head.reasonBytes = storage[reasonStart..<reasonEnd]
                reset()
                return .complete(head, consumed: headEnd)
            case .error(let error):
                return fail(error)
            }
        }
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[0..<index]))
        position = base + index
        if index < span.count {
            return fail(HTTP1Error(.headTooLarge, offset: position))
        }
        return .needMore
    }

    private var version: HTTPVersion { HTTPVersion(major: major, minor: minor) }

    private mutating func fail(_ error: HTTP1Error) -> HeadParseResult<ResponseHead> {
        failure = error
        state = .failed
        storage = []
        return .error(error)
    }

    /// Consumes one status-line byte, found at head offset `offset`.
    private mutating func statusLineByte(_ byte: UInt8, offset: Int) -> HTTP1Error? {
        if state != .leadingLine, state != .leadingCR, state != .lineCR, byte != ByteClass.cr,
            offset - lineStart >= limits.maxStartLineBytes
        {
            return HTTP1Error(.statusLineTooLong, offset: offset)
        }
        if byte == ByteClass.lf, state != .leadingCR, state != .lineCR {
            return HTTP1Error(.bareLF, offset: offset)
        }
        switch state {
        case .leadingLine:
            if byte == ByteClass.cr {
                state = .leadingCR
                return nil
            }
            lineStart = offset
            state = .version
            return versionByte(byte, offset: offset)
        case .leadingCR, .lineCR:
            guard byte == ByteClass.lf else {
                return HTTP1Error(.bareCR, offset: offset - 1)
            }
            state = state == .leadingCR ? .leadingLine : .fields
        case .version:
            return versionByte(byte, offset: offset)
        case .status:
            guard ByteClass.isDigit(byte) else {
                return HTTP1Error(.invalidStatusCode, offset: offset)
            }
            status = status * 10 + Int(byte - 0x30)
            if offset - lineStart == 11 {
                guard (100...599).contains(status) else {
                    return HTTP1Error(.invalidStatusCode, offset: lineStart + 9)
                }
                state = .afterStatus
            }
        case .afterStatus:
            reasonStart = offset + 1
            reasonEnd = offset + 1
            if byte == ByteClass.sp {
                state = .reason
            } else if byte == ByteClass.cr {
                reasonStart = offset
                reasonEnd = offset
                state = .lineCR
            } else {
                return HTTP1Error(ByteClass.isDigit(byte) ? .invalidStatusCode : .invalidStatusLine, offset: offset)
            }
        case .reason:
            if byte == ByteClass.cr {
                state = .lineCR
            } else if ByteClass.isFieldVChar(byte) || ByteClass.isWhitespace(byte) {
                reasonEnd = offset + 1
            } else {
                return HTTP1Error(.invalidStatusLine, offset: offset)
            }
        case .fields, .failed:
            preconditionFailure("status-line byte in state \(state)")
        }
        return nil
    }

    /// A whole ordinary status line at the start of a head's first span (`HTTP/1.x SP 3DIGIT [SP reason] CRLF`
    /// within the line limit, a status from 100 to 599): its parts noted as the byte machine notes them, and the
    /// index just past its LF returned. nil for anything else, with nothing changed: the byte machine then reads
    /// the line and finds what is wrong with it.
    @inline(__always)
    private mutating func wholeStatusLine(_ span: UnsafeRawBufferPointer, end: Int) -> Int? {
        let limit = min(end, limits.maxStartLineBytes)  // the CR must come before this
        guard limit > 13,
            UInt64(littleEndian: span.loadUnaligned(as: UInt64.self)) & 0x00FF_FFFF_FFFF_FFFF
                == RequestHeadParser.http1Prefix,
            span[8] == ByteClass.sp
        else { return nil }
        let minor = span[7] &- 0x30
        let hundreds = span[9] &- 0x30
        let tens = span[10] &- 0x30
        let ones = span[11] &- 0x30
        guard minor <= 1, (1...5).contains(hundreds), tens <= 9, ones <= 9 else { return nil }
        var index = 12
        var reasonStart = 12
        if span[index] == ByteClass.sp {
            index += 1
            reasonStart = index
            while index < limit, ByteClass.isFieldVChar(span[index]) || ByteClass.isWhitespace(span[index]) {
                index += 1
            }
        }
        guard index < limit, index + 1 < end, span[index] == ByteClass.cr, span[index + 1] == ByteClass.lf else {
            return nil
        }
        major = 1
        self.minor = minor
        status = Int(hundreds) * 100 + Int(tens) * 10 + Int(ones)
        lineStart = 0
        self.reasonStart = reasonStart
        reasonEnd = index
        state = .fields
        return index + 2
    }

    /// Checks one byte of `HTTP/` DIGIT `.` DIGIT SP.
    private mutating func versionByte(_ byte: UInt8, offset: Int) -> HTTP1Error? {
        let column = offset - lineStart
        let valid: Bool
        switch column {
        case 0: valid = byte == UInt8(ascii: "H")
        case 1, 2: valid = byte == UInt8(ascii: "T")
        case 3: valid = byte == UInt8(ascii: "P")
        case 4: valid = byte == UInt8(ascii: "/")
        case 5:
            valid = ByteClass.isDigit(byte)
            major = byte &- 0x30
        case 6: valid = byte == UInt8(ascii: ".")
        case 7:
            valid = ByteClass.isDigit(byte)
            minor = byte &- 0x30
            if valid, major != 1 || minor > 1 {
                return HTTP1Error(.unsupportedVersion, offset: lineStart)
            }
        default:
            guard byte == ByteClass.sp else {
                return HTTP1Error(ByteClass.isDigit(byte) ? .invalidVersion : .invalidStatusLine, offset: offset)
            }
            state = .status
            return nil
        }
        return valid ? nil : HTTP1Error(.invalidVersion, offset: offset)
    }
}
