/// One decoder for every ``BodyFraming``: the engine builds it from the framing of a head and feeds
/// it spans until `.end`.
public struct BodyDecoder: Sendable {
    /// Small on purpose: the chunked decoder lies beside it, not in it, so that switching over the mode on every
    /// span copies a word rather than the chunked decoder (ten copies per small request, trailer scanner included).
    private enum Mode: Sendable {
        case empty
        case length(remaining: UInt64)
        case chunked
        case untilClose(closed: Bool)
    }

    private var mode: Mode
    /// The chunked decoder, in `.chunked` mode.
    private var chunked: ChunkedDecoder?
    /// Body bytes consumed so far (data and framing).
    public private(set) var consumed = 0

    /// Creates a decoder.
    /// - Parameters:
    ///   - framing: How the body is delimited.
    ///   - chunkedLimits: Limits for a chunked body.
    public init(framing: BodyFraming, chunkedLimits: ChunkedLimits = ChunkedLimits()) {
        switch framing {
        case .none: mode = .empty
        case .contentLength(let length): mode = length == 0 ? .empty : .length(remaining: length)
        case .chunked:
            mode = .chunked
            chunked = ChunkedDecoder(limits: chunkedLimits)
        case .untilClose: mode = .untilClose(closed: false)
        }
    }

    /// Whether the whole body has been read.
    public var isComplete: Bool {
        switch mode {
        case .empty: return true
        case .length(let remaining): return remaining == 0
        case .chunked: return chunked!.isComplete
        case .untilClose(let closed): return closed
        }
    }

    /// Decodes the next span (which may be empty, to learn whether the body has ended).
    /// - Parameter span: Bytes following those already fed.
    /// - Returns: `.data(range)`, `.needMore`, `.end(consumed:)` or `.error`.
    public mutating func decode(_ span: UnsafeRawBufferPointer) -> BodyAction {
        switch mode {
        case .empty:
            return .end(consumed: 0)
        case .length(let remaining):
            if remaining == 0 {
                return .end(consumed: 0)
            }
            let take = Int(min(remaining, UInt64(span.count)))
            if take == 0 {
                return .needMore
            }
            mode = .length(remaining: remaining - UInt64(take))
            consumed += take
            return .data(0..<take)
        case .chunked:
            let action = chunked!.decode(span)
            switch action {
            case .data(let range): consumed += range.upperBound
            case .end(let count): consumed += count
            case .needMore: consumed += span.count
            case .error: break
            }
            return action
        case .untilClose(let closed):
            if closed {
                return .end(consumed: 0)
            }
            if span.isEmpty {
                return .needMore
            }
            consumed += span.count
            return .data(0..<span.count)
        }
    }

    /// Reports the end of input. For a close-delimited body that is its end; for the others it is
    /// `truncated_body` unless the body was already complete.
    public mutating func finish() -> HTTP1Error? {
        switch mode {
        case .empty:
            return nil
        case .length(let remaining):
            return remaining == 0 ? nil : HTTP1Error(.truncatedBody, offset: consumed)
        case .chunked:
            return chunked!.finish()
        case .untilClose:
            mode = .untilClose(closed: true)
            return nil
        }
    }
}
