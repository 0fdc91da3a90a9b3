/// A strict, resumable request head parser (RFC 9112 §2-§5) fed arbitrary spans.
///
/// Feed it the bytes peeked from the client buffer, span after span, until it answers
/// ``HeadParseResult/complete(_:consumed:)``. It copies only head bytes (at most
/// `HeadLimits.maxHeadBytes`), never looks past the head's final CRLF, and does the same work
/// whether the head arrives whole or one byte at a time. After a complete head it is ready for the
/// next one (pipelining); after an error it stays failed until ``reset()``.
///
/// Decisions beyond the RFC's MUSTs: CRLF only (a bare LF is refused although RFC 9112 §2.2 allows
/// it); empty lines (CRLF) before the request line are skipped, as RFC 9112 §2.2 recommends, and
/// count toward the head size limit; single SP separators only; HTTP/1.0 and HTTP/1.1 only.
public struct RequestHeadParser: Sendable {
    private enum State: UInt8, Sendable {
        case leadingLine
        case leadingCR
        case method
        case target
        case version
        case versionCR
        case fields
        case failed
    }

    /// The limits this parser enforces.
    public let limits: HeadLimits
    /// The methods this parser accepts.
    public let methods: MethodPolicy

    private var state: State = .leadingLine
    private var storage: [UInt8] = []
    /// Head bytes consumed so far (= storage.count between calls).
    private var position = 0
    private var lineStart = 0
    private var methodEnd = 0
    private var targetEnd = 0
    private var method = ""
    private var target: RequestTarget?
    private var major: UInt8 = 0
    private var minor: UInt8 = 0
    private var version = HTTPVersion.http1_1
    private var scanner: FieldSectionScanner
    private var failure: HTTP1Error?

    /// Creates a parser.
    /// - Parameters:
    ///   - limits: Size and count limits for each head.
    ///   - methods: Which methods to accept.
    public init(limits: HeadLimits = HeadLimits(), methods: MethodPolicy = .registered) {
        self.limits = limits
        self.methods = methods
        self.scanner = RequestHeadParser.makeScanner(limits)
    }

    private static func makeScanner(_ limits: HeadLimits) -> FieldSectionScanner {
        FieldSectionScanner(
            afterStartLine: true,
            recording: true,
            maxFieldLineBytes: limits.maxFieldLineBytes,
            maxFieldCount: limits.maxFieldCount,
            checksContentLength: true
        )
    }

    /// The size in bytes of the last head that completed (leading empty lines, request line, field lines and
    /// the final CRLF: what ``HeadLimits/maxHeadBytes`` counts); 0 before the first. Lets a caller check a
    /// head against a tighter limit once it knows more (a route's `header_bytes`).
    public private(set) var completedHeadBytes = 0

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
        self = RequestHeadParser(limits: limits, methods: methods)
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
    public mutating func feed(_ span: UnsafeRawBufferPointer) -> HeadParseResult<RequestHead> {
        if let failure {
            return .error(failure)
        }
        let base = position  // head offset of span[0]
        let end = min(span.count, limits.maxHeadBytes - base)
        var runStart = 0
        // The request line is moved into storage in up to three pieces: one allocation for them all.
        if storage.capacity == 0 { storage.reserveCapacity(min(end, 1024)) }
        var index = 0
        if state == .leadingLine, base == 0, let lineEnd = wholeRequestLine(span, end: end) {
            if let error = requestLineComplete() {
                return fail(error)
            }
            index = lineEnd
            runStart = lineEnd
        }
        while index < end, state != .fields {
            if let error = startLineByte(span, at: index, offset: base + index, runStart: &runStart) {
                return fail(error)
            }
            index += 1
        }
        if state == .fields, index < end {
            switch scanner.scan(span, from: index, to: end, offset: base + index) {
            case .needMore:
                index = end
            case .done(let headEnd):
                storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[runStart..<headEnd]))
                let head = RequestHead(
                    method: method,
                    target: target.take()!,
                    version: version,
                    fields: HTTPFields(storage: storage, entries: scanner.takeEntries())
                )
                reset()
                completedHeadBytes = base + headEnd
                return .complete(consume head, consumed: headEnd)
            case .error(let error):
                return fail(error)
            }
        }
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[runStart..<index]))
        position = base + index
        if index < span.count {
            return fail(HTTP1Error(.headTooLarge, offset: position))
        }
        return .needMore
    }

    private mutating func fail(_ error: HTTP1Error) -> HeadParseResult<RequestHead> {
        failure = error
        state = .failed
        storage = []
        return .error(error)
    }

    /// Moves `span[runStart..<index]` into storage so that finished parts of the line can be read.
    private mutating func flush(_ span: UnsafeRawBufferPointer, runStart: inout Int, upTo index: Int) {
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[runStart..<index]))
        runStart = index
    }

    /// Consumes one request-line byte, found at head offset `offset`.
    private mutating func startLineByte(
        _ span: UnsafeRawBufferPointer,
        at index: Int,
        offset: Int,
        runStart: inout Int
    ) -> HTTP1Error? {
        let byte = span[index]
        if state == .method || state == .target || state == .version, byte != ByteClass.cr,
            offset - lineStart >= limits.maxStartLineBytes
        {
            return HTTP1Error(.requestLineTooLong, offset: offset)
        }
        switch state {
        case .leadingLine:
            if ByteClass.isTChar(byte) {
                lineStart = offset
                state = .method
            } else if byte == ByteClass.cr {
                state = .leadingCR
            } else {
                return HTTP1Error(byte == ByteClass.lf ? .bareLF : .invalidMethod, offset: offset)
            }
        case .leadingCR:
            guard byte == ByteClass.lf else {
                return HTTP1Error(.bareCR, offset: offset - 1)
            }
            state = .leadingLine
        case .method:
            if ByteClass.isTChar(byte) {
                return nil
            }
            guard byte == ByteClass.sp else {
                return HTTP1Error(lineError(byte, otherwise: .invalidMethod), offset: offset)
            }
            flush(span, runStart: &runStart, upTo: index)
            methodEnd = offset
            method = String(decoding: storage[lineStart..<methodEnd], as: UTF8.self)
            guard methods.accepts(method) else {
                return HTTP1Error(.unknownMethod, offset: lineStart)
            }
            state = .target
        case .target:
            if byte > 0x20 && byte < 0x7F {
                return nil
            }
            guard byte == ByteClass.sp else {
                return HTTP1Error(lineError(byte, otherwise: .invalidTarget), offset: offset)
            }
            guard offset > methodEnd + 1 else {
                return HTTP1Error(.invalidRequestLine, offset: offset)
            }
            targetEnd = offset
            state = .version
        case .version:
            return versionByte(byte, at: offset)
        case .versionCR:
            guard byte == ByteClass.lf else {
                return HTTP1Error(.bareCR, offset: offset - 1)
            }
            flush(span, runStart: &runStart, upTo: index)
            return requestLineComplete()
        case .fields, .failed:
            preconditionFailure("start-line byte in state \(state)")
        }
        return nil
    }

    /// A whole ordinary request line at the start of a head's first span (`token SP target SP HTTP/1.x CRLF`,
    /// within the line limit, an accepted method): moved into storage, its parts noted as the byte machine notes
    /// them, and the index just past its LF returned; ``requestLineComplete()`` is next. nil for anything else,
    /// with nothing changed: the byte machine then reads the line and finds what is wrong with it.
    @inline(__always)
    private mutating func wholeRequestLine(_ span: UnsafeRawBufferPointer, end: Int) -> Int? {
        let limit = min(end, limits.maxStartLineBytes)  // the CR must come before this
        var index = 0
        while index < limit, ByteClass.isTChar(span[index]) { index += 1 }
        let methodEnd = index
        guard methodEnd > 0, index < limit, span[index] == ByteClass.sp else { return nil }
        index += 1
        while index < limit, span[index] > 0x20 && span[index] < 0x7F { index += 1 }
        let targetEnd = index
        guard targetEnd > methodEnd + 1, index < limit, span[index] == ByteClass.sp else { return nil }
        // `HTTP/1.x` CR before the limit, LF in the span.
        let versionStart = index + 1
        guard versionStart + 8 < limit, versionStart + 9 < end,
            UInt64(littleEndian: span.loadUnaligned(fromByteOffset: versionStart, as: UInt64.self))
                & 0x00FF_FFFF_FFFF_FFFF == Self.http1Prefix,
            span[versionStart + 8] == ByteClass.cr, span[versionStart + 9] == ByteClass.lf
        else { return nil }
        let minor = span[versionStart + 7] &- 0x30
        guard minor <= 1 else { return nil }
        let method = Self.commonMethod(span, count: methodEnd)
            ?? String(decoding: UnsafeRawBufferPointer(rebasing: span[0..<methodEnd]), as: UTF8.self)
        guard methods.accepts(method) else { return nil }
        let lineEnd = versionStart + 10
        storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: span[0..<lineEnd]))
        self.method = method
        lineStart = 0
        self.methodEnd = methodEnd
        self.targetEnd = targetEnd
        major = 1
        self.minor = minor
        return lineEnd
    }

    /// `HTTP/1.` as the low seven bytes of a little-endian word (the eighth, the minor digit, is masked off):
    /// `.` `1` `/` `P` `T` `T` `H` from the top.
    static let http1Prefix: UInt64 = 0x002E_312F_5054_5448

    /// The error for an unexpected byte inside the method or target.
    private func lineError(_ byte: UInt8, otherwise code: HTTP1Error.Code) -> HTTP1Error.Code {
        switch byte {
        case ByteClass.lf: return .bareLF
        case ByteClass.cr: return .invalidRequestLine
        default: return code
        }
    }

    /// Checks one byte of `HTTP/` DIGIT `.` DIGIT CR.
    private mutating func versionByte(_ byte: UInt8, at offset: Int) -> HTTP1Error? {
        let column = offset - (targetEnd + 1)
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
                return HTTP1Error(.unsupportedVersion, offset: targetEnd + 1)
            }
        default:
            valid = byte == ByteClass.cr
            if valid {
                state = .versionCR
            }
        }
        if valid {
            return nil
        }
        return HTTP1Error(byte == ByteClass.lf ? .bareLF : .invalidVersion, offset: offset)
    }

    /// Validates the complete request line (now all in storage) and moves on to the fields.
    /// The usual methods as string literals (no UTF-8 check and no copy per request); nil for others.
    static func commonMethod(_ bytes: UnsafeRawBufferPointer, count: Int) -> String? {
        func spells(_ word: StaticString) -> Bool {
            let letters = word.utf8Start
            for index in 0..<count where bytes[index] != letters[index] { return false }
            return true
        }
        switch count {
        case 3: return spells("GET") ? "GET" : spells("PUT") ? "PUT" : nil
        case 4: return spells("POST") ? "POST" : spells("HEAD") ? "HEAD" : nil
        case 5: return spells("PATCH") ? "PATCH" : nil
        case 6: return spells("DELETE") ? "DELETE" : nil
        case 7: return spells("OPTIONS") ? "OPTIONS" : nil
        default: return nil
        }
    }

    private mutating func requestLineComplete() -> HTTP1Error? {
        version = HTTPVersion(major: major, minor: minor)
        do {
            // Read in place: a copy of the target's bytes was an allocation per request.
            let (start, end, method) = (methodEnd + 1, targetEnd, method)
            target = try storage.withUnsafeBufferPointer { stored throws(HTTP1Error) in
                try RequestTarget.parse(UnsafeBufferPointer(rebasing: stored[start..<end]), method: method, offset: start)
            }
        } catch {
            return error
        }
        state = .fields
        return nil
    }
}
