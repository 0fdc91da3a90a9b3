#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming push parser for `multipart/form-data` bodies.
///
/// Feed it arbitrary spans of the body in order (``parse(_:into:)``), then call ``finish(into:)`` at the
/// end of the body. It emits events to a ``MultipartHandler``: part heads, body bytes as pointers into the
/// spans it was given (never copies), part ends and the end. It holds at most the current part's header
/// section (bounded by ``MultipartLimits/partHeaderBytes``) and a count of delimiter bytes held back at a
/// span edge; body bytes held back there are re-emitted from the delimiter pattern itself.
///
/// Delimiters are found by a vector scan for their first and last bytes, then a compare (`CDelimiterScan`);
/// the last `length - 1` bytes of a span by `memchr` for a prefix to hold back. The first byte (CR, or LF in a
/// consistently LF-only body) never occurs again inside a delimiter, so no byte is compared more than twice
/// and the search is linear whatever the data (no Werkzeug CVE-2023-46136 rescans).
///
/// Every deviation from RFC 2046/7578 is a ``StrictFlag`` handled per ``Strictness``: reject throws a
/// ``MultipartError`` (the parser then stays failed), normalize reports a ``MultipartViolation``.
public struct MultipartParser: Sendable {
    enum LineMode { case unknown, crlf, lf }

    enum DelimiterLine { case initial, dash, padding, cr }

    enum CloseLine { case initial, cr }

    enum State {
        case start
        case preamble
        case delimiterLine(DelimiterLine)
        case headers
        case body
        case closeLine(CloseLine)
        case epilogue
        case finished
        case failed(MultipartError)
    }

    /// The delimiter patterns for this body's boundary.
    let patterns: DelimiterPatterns
    let limits: MultipartLimits
    let actions: ParserActions

    var state: State = .start
    var lineMode: LineMode = .unknown
    /// Absolute body offset of the span being parsed.
    var spanOffset: Int64 = 0
    /// How many leading bytes of the current pattern were matched at the end of the previous span(s).
    var heldCount = 0
    /// Absolute offset of the first held byte.
    var heldOffset: Int64 = 0

    /// Parts started so far; the current part's index is `partCount - 1`.
    var partCount = 0
    /// Offset of the current part's opening delimiter.
    var partOffset: Int64 = 0
    /// Whether the current part is a field (no filename), whose bytes count against `fieldBytes`.
    var currentIsField = false
    var currentBodyBytes: Int64 = 0
    /// The head of a part with `filename=""`, held until the part's first byte or its end (`empty_filename`).
    var heldHead: PartHead?
    /// Whether ``heldHead`` is set: a Bool the body path tests per span (testing the optional copied the head).
    var holdsHead = false

    var preambleBytes = 0
    var epilogueBytes = 0
    var reportedTransportPadding = false
    /// Transport-padding bytes on the current delimiter line (bounded by `partHeaderBytes`).
    var paddingBytes = 0

    /// The current part's header lines: a line straddling spans, and (only when folding is normalized)
    /// raw fields kept until the blank line.
    var head: HeadBuffer
    /// What the current part's header lines said so far.
    var pending = PendingPart()
    /// A header field refused while its successor line is not read yet (see `headerLine`).
    var deferredError: MultipartError?
    /// Whether `header_folding` is normalized (header fields are then interpreted at the blank line).
    let foldingNormalized: Bool

    /// Creates a parser for one body.
    /// - Parameters:
    ///   - boundary: the boundary from the request Content-Type.
    ///   - limits: size and count limits.
    ///   - strictness: the action for each strict flag.
    public init(boundary: Boundary, limits: MultipartLimits = MultipartLimits(), strictness: Strictness = Strictness()) {
        patterns = DelimiterPatterns.make(boundary)
        self.limits = limits
        self.head = HeadBuffer(capacityLimit: limits.partHeaderBytes)
        self.actions = ParserActions(strictness)
        foldingNormalized = strictness.normalizesHeaderFolding
    }

    /// Number of parts whose head has been read (or started).
    public var partsSeen: Int { partCount }

    /// Total bytes consumed so far.
    public var bytesConsumed: Int64 { spanOffset }

    /// True once ``finish(into:)`` succeeded.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Parses the next span of the body.
    /// - Parameters:
    ///   - span: the next bytes of the body, in order.
    ///   - handler: receives the events found in this span.
    /// - Throws: ``MultipartError`` when a check whose action is reject fires, or a limit is exceeded;
    ///   every later call throws the same error.
    public mutating func parse<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, into handler: inout Handler
    ) throws(MultipartError) {
        if case .failed(let error) = state { throw error }
        do {
            try run(span, &handler)
        } catch {
            state = .failed(error)
            throw error
        }
        spanOffset += Int64(span.count)
    }

    /// Ends the body.
    /// - Parameter handler: receives the final events (``MultipartHandler/end()``).
    /// - Throws: ``MultipartError`` (`missing_final_boundary`) if the close delimiter was not seen.
    public mutating func finish<Handler: MultipartHandler>(into handler: inout Handler) throws(MultipartError) {
        do {
            try finishBody(&handler)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func run<Handler: MultipartHandler>(
        _ span: UnsafeRawBufferPointer, _ handler: inout Handler
    ) throws(MultipartError) {
        var index = 0
        let count = span.count
        while index < count {
            switch state {
            case .start:
                index = try scanStart(span, index, &handler)
            case .preamble:
                index = try scanPreamble(span, index, &handler)
            case .delimiterLine(let line):
                index = try scanDelimiterLine(line, span, index, &handler)
            case .headers:
                index = try scanHeaders(span, index, &handler)
            case .body:
                index = try scanBody(span, index, &handler)
            case .closeLine(let line):
                index = try scanCloseLine(line, span, index, &handler)
            case .epilogue:
                try addEpilogue(count - index, at: spanOffset + Int64(index), &handler)
                index = count
            case .finished, .failed:
                preconditionFailure("MultipartParser: parse after finish")
            }
        }
    }

    private mutating func finishBody<Handler: MultipartHandler>(_ handler: inout Handler) throws(MultipartError) {
        let end = spanOffset
        switch state {
        case .failed(let error):
            throw error
        case .finished:
            return
        case .closeLine(.cr):
            // A lone CR after the close delimiter is epilogue, like `CR X` would be.
            try addEpilogue(1, at: end - 1, &handler)
        case .closeLine, .epilogue:
            break
        case .delimiterLine:
            // The body ended right after a complete delimiter: only a missing `--`. (No part yet if it
            // was the first delimiter.)
            try normalizeOrReject(.missingFinalBoundary, part: currentPart, at: end, &handler)
        case .headers where head.isEmpty && !head.hasPartialLine:
            // The body ended right after a delimiter line (formidable's "missing hyphens").
            try normalizeOrReject(.missingFinalBoundary, part: partCount - 1, at: end, &handler)
            partCount -= 1
        case .start, .preamble, .headers, .body:
            throw MultipartError(.flag(.missingFinalBoundary), part: partCount > 0 ? partCount - 1 : nil, offset: end)
        }
        state = .finished
        handler.end()
    }

    /// Applies `flag`'s action: reject throws, normalize reports, allow does nothing.
    @inline(__always)
    mutating func normalizeOrReject<Handler: MultipartHandler>(
        _ flag: StrictFlag, part: Int?, at offset: Int64, _ handler: inout Handler
    ) throws(MultipartError) {
        switch actions[flag] {
        case .reject: throw MultipartError(.flag(flag), part: part, offset: offset)
        case .normalize: handler.violation(MultipartViolation(flag: flag, part: part, offset: offset))
        case .allow: break
        }
    }

    /// The index of the current part, or nil before the first.
    var currentPart: Int? { partCount > 0 ? partCount - 1 : nil }
}

/// The strictness actions the parser consults, resolved once.
struct ParserActions: Sendable {
    // The configuration's Strictness is shared, not copied into a table per parser: one parser per request,
    // and only violation paths consult it.
    private let strictness: Strictness

    init(_ strictness: Strictness) {
        self.strictness = strictness
    }

    subscript(flag: StrictFlag) -> StrictAction { strictness.action(for: flag) }
}
