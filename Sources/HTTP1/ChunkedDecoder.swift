/// A strict, resumable decoder of the chunked transfer coding (RFC 9112 §7.1) over spans.
///
/// Data is never copied: each `.data(range)` points into the span just fed. Framing is strict:
/// chunk-size is `1*HEXDIG` directly followed by `;` or CRLF (no `0x`, sign or whitespace: BWS is
/// refused as llhttp's strict mode does), overflow-checked against `ChunkedLimits.maxChunkSize`;
/// extensions are `;name[=token|quoted-string]`, capped in total; every line and every chunk's data
/// ends in CRLF (a bare CR or LF is refused, the "funky chunks" class); the trailer section is
/// validated like a header section, bounded, and dropped.
public struct ChunkedDecoder: Sendable {
    private enum State: UInt8, Sendable {
        case sizeStart
        case size
        case extNameStart
        case extName
        case extValueStart
        case extToken
        case extQuoted
        case extQuotedPair
        case extQuotedEnd
        case sizeLF
        case data
        case dataCR
        case dataLF
        case trailers
        case done
        case failed
    }

    /// The limits this decoder enforces.
    public let limits: ChunkedLimits

    private var state: State = .sizeStart
    /// Bytes consumed since the start of the body (error offsets are relative to it).
    private var position = 0
    private var size: UInt64 = 0
    private var digits = 0
    private var remaining: UInt64 = 0
    private var extensionBytes = 0
    private var trailerStart = 0
    private var trailers: FieldSectionScanner
    private var failure: HTTP1Error?

    /// Creates a decoder positioned at the first chunk-size.
    /// - Parameter limits: Framing limits.
    public init(limits: ChunkedLimits = ChunkedLimits()) {
        self.limits = limits
        self.trailers = FieldSectionScanner(
            afterStartLine: false,
            recording: false,
            maxFieldLineBytes: limits.maxTrailerBytes,
            maxFieldCount: limits.maxTrailerFields,
            checksContentLength: false
        )
    }

    /// Whether the last chunk and the trailer section have been read.
    public var isComplete: Bool { state == .done }

    /// Reports the end of input: nil when the body is complete, else `truncated_body` (or the earlier error).
    public func finish() -> HTTP1Error? {
        if let failure {
            return failure
        }
        return isComplete ? nil : HTTP1Error(.truncatedBody, offset: position)
    }

    /// Decodes the next span.
    /// - Parameter span: Bytes following those already fed.
    /// - Returns: `.data(range)`, `.needMore`, `.end(consumed:)` or `.error`.
    public mutating func decode(_ span: UnsafeRawBufferPointer) -> BodyAction {
        if let failure {
            return .error(failure)
        }
        if state == .done {
            return .end(consumed: 0)
        }
        var index = 0
        while index < span.count {
            switch state {
            case .data:
                let take = Int(min(remaining, UInt64(span.count - index)))
                remaining -= UInt64(take)
                position += take
                if remaining == 0 {
                    state = .dataCR
                }
                return .data(index..<(index + take))
            case .trailers:
                let room = limits.maxTrailerBytes - (position - trailerStart)
                let end = index + min(span.count - index, room)
                switch trailers.scan(span, from: index, to: end, offset: position) {
                case .needMore:
                    position += end - index
                    index = end
                    if index < span.count {
                        return fail(HTTP1Error(.trailerTooLarge, offset: position))
                    }
                case .done(let sectionEnd):
                    position += sectionEnd - index
                    state = .done
                    return .end(consumed: sectionEnd)
                case .error(let error):
                    return fail(error)
                }
            default:
                if let error = framingByte(span[index]) {
                    return fail(error)
                }
                index += 1
                position += 1
            }
        }
        return .needMore
    }

    private mutating func fail(_ error: HTTP1Error) -> BodyAction {
        failure = error
        state = .failed
        return .error(error)
    }

    /// Consumes one byte of a chunk-size line or of the CRLF after chunk data.
    private mutating func framingByte(_ byte: UInt8) -> HTTP1Error? {
        switch state {
        case .sizeStart, .size:
            return sizeByte(byte)
        case .sizeLF:
            guard byte == ByteClass.lf else {
                return HTTP1Error(.bareCR, offset: position - 1)
            }
            if size == 0 {
                trailerStart = position + 1
                state = .trailers
            } else {
                remaining = size
                state = .data
            }
        case .dataCR:
            guard byte == ByteClass.cr else {
                return HTTP1Error(.missingCRLFAfterChunk, offset: position)
            }
            state = .dataLF
        case .dataLF:
            guard byte == ByteClass.lf else {
                return HTTP1Error(.bareCR, offset: position - 1)
            }
            size = 0
            digits = 0
            state = .sizeStart
        case .extNameStart, .extName, .extValueStart, .extToken, .extQuoted, .extQuotedPair, .extQuotedEnd:
            return extensionByte(byte)
        case .data, .trailers, .done, .failed:
            preconditionFailure("framing byte in state \(state)")
        }
        return nil
    }

    /// Consumes one byte of the chunk-size.
    private mutating func sizeByte(_ byte: UInt8) -> HTTP1Error? {
        if let value = ByteClass.hexValue(byte) {
            digits += 1
            let current = state == .sizeStart ? 0 : size
            let (shifted, overflow1) = current.multipliedReportingOverflow(by: 16)
            let (next, overflow2) = shifted.addingReportingOverflow(UInt64(value))
            guard digits <= 32, !overflow1, !overflow2, next <= limits.maxChunkSize else {
                return HTTP1Error(.chunkSizeOverflow, offset: position)
            }
            size = next
            state = .size
            return nil
        }
        guard state == .size else {
            return HTTP1Error(byte == ByteClass.lf ? .bareLF : .invalidChunkSize, offset: position)
        }
        switch byte {
        case ByteClass.cr:
            state = .sizeLF
        case ByteClass.semicolon:
            state = .extNameStart
            return countExtensionByte()
        case ByteClass.lf:
            return HTTP1Error(.bareLF, offset: position)
        default:
            return HTTP1Error(.invalidChunkSize, offset: position)
        }
        return nil
    }

    private mutating func countExtensionByte() -> HTTP1Error? {
        extensionBytes += 1
        return extensionBytes > limits.maxExtensionBytes ? HTTP1Error(.chunkExtensionTooLong, offset: position) : nil
    }

    /// Consumes one byte of `*( ";" name [ "=" ( token / quoted-string ) ] )` or the CR after it.
    private mutating func extensionByte(_ byte: UInt8) -> HTTP1Error? {
        let endsLine = byte == ByteClass.cr
        switch state {
        case .extNameStart:
            guard ByteClass.isTChar(byte) else {
                return invalidExtension(byte)
            }
            state = .extName
        case .extName, .extToken:
            if ByteClass.isTChar(byte) {
                break
            } else if byte == ByteClass.equals, state == .extName {
                state = .extValueStart
            } else if byte == ByteClass.semicolon {
                state = .extNameStart
            } else if endsLine {
                state = .sizeLF
                return nil
            } else {
                return invalidExtension(byte)
            }
        case .extValueStart:
            if byte == ByteClass.dquote {
                state = .extQuoted
            } else if ByteClass.isTChar(byte) {
                state = .extToken
            } else {
                return invalidExtension(byte)
            }
        case .extQuoted:
            if byte == ByteClass.dquote {
                state = .extQuotedEnd
            } else if byte == ByteClass.backslash {
                state = .extQuotedPair
            } else if !ByteClass.isQDText(byte) {
                return invalidExtension(byte)
            }
        case .extQuotedPair:
            guard ByteClass.isQuotedPairByte(byte) else {
                return invalidExtension(byte)
            }
            state = .extQuoted
        case .extQuotedEnd:
            if byte == ByteClass.semicolon {
                state = .extNameStart
            } else if endsLine {
                state = .sizeLF
                return nil
            } else {
                return invalidExtension(byte)
            }
        default:
            preconditionFailure("extension byte in state \(state)")
        }
        return countExtensionByte()
    }

    private func invalidExtension(_ byte: UInt8) -> HTTP1Error {
        HTTP1Error(byte == ByteClass.lf ? .bareLF : .invalidChunkExtension, offset: position)
    }
}
