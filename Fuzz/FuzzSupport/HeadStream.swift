import HTTP1

/// A head parser of `HTTP1` as the head targets drive it: ``RequestHeadParser`` or ``ResponseHeadParser``.
public protocol HeadStreamParser {
    associatedtype Head: Hashable & Sendable
    /// A parser with `limits` and everything else as the engine sets it.
    static func make(limits: HeadLimits) -> Self
    var isIdle: Bool { get }
    mutating func feed(_ span: UnsafeRawBufferPointer) -> HeadParseResult<Head>
}

extension RequestHeadParser: HeadStreamParser {
    public static func make(limits: HeadLimits) -> RequestHeadParser { RequestHeadParser(limits: limits) }
}

extension ResponseHeadParser: HeadStreamParser {
    public static func make(limits: HeadLimits) -> ResponseHeadParser { ResponseHeadParser(limits: limits) }
}

/// What a head parser reads from a byte stream: the heads it completed, in order, with the stream offset just
/// past each, and how the reading stopped. After a head, the bytes that follow are fed again, as the engine does
/// for pipelined requests and after an interim (1xx) response.
public struct HeadStream<Parser: HeadStreamParser>: Equatable {
    public enum Stop: Equatable {
        /// Every byte was read and the parser waits for more (idle or inside a head).
        case needMore(idle: Bool)
        /// The parser failed.
        case error(HTTP1Error)
    }

    public var heads: [Parser.Head] = []
    /// Stream offset just past each head.
    public var ends: [Int] = []
    public var stop: Stop = .needMore(idle: true)

    /// At most this many heads are read from one input (the rest is ignored).
    public static var maxHeads: Int { 16 }

    /// Feeds `input` to one parser in the pieces `cuts` makes (sorted offsets inside the input).
    public static func read(_ input: UnsafeRawBufferPointer, limits: HeadLimits, cuts: [Int]) -> HeadStream {
        var parser = Parser.make(limits: limits)
        var result = HeadStream()
        var start = 0
        let pieceEnds = cuts.filter { $0 > 0 && $0 < input.count } + [input.count]
        var pieceIndex = 0
        while pieceIndex < pieceEnds.count {
            let end = pieceEnds[pieceIndex]
            if start >= end {
                pieceIndex += 1
                continue
            }
            switch parser.feed(UnsafeRawBufferPointer(rebasing: input[start..<end])) {
            case .needMore:
                start = end
                pieceIndex += 1
            case .complete(let head, let consumed):
                result.heads.append(head)
                result.ends.append(start + consumed)
                start += consumed
                if result.heads.count == maxHeads {
                    result.stop = .needMore(idle: parser.isIdle)
                    return result
                }
            case .error(let error):
                result.stop = .error(error)
                return result
            }
        }
        result.stop = .needMore(idle: parser.isIdle)
        return result
    }

    /// The checks every head target makes, under `limits`: the same heads, offsets and stop whether the input
    /// comes whole, one byte at a time, or cut at two points the input chooses; no head over `maxHeadBytes`
    /// (counting the empty lines skipped before it); an error offset within the head being read. Then calls
    /// `eachHead` on every head read.
    public static func check(
        _ input: UnsafeRawBufferPointer, limits: HeadLimits, eachHead: (Parser.Head) -> Void
    ) {
        let whole = read(input, limits: limits, cuts: [])
        let bytewise = read(input, limits: limits, cuts: Array(0..<input.count))
        invariant(whole == bytewise, "byte-at-a-time reading differs:\n whole \(whole)\n bytes \(bytewise)")
        let cuts = cutPoints(in: input)
        let split = read(input, limits: limits, cuts: cuts)
        invariant(whole == split, "reading cut at \(cuts) differs:\n whole \(whole)\n split \(split)")

        var previousEnd = 0
        for (head, end) in zip(whole.heads, whole.ends) {
            invariant(end - previousEnd <= limits.maxHeadBytes,
                      "a head of \(end - previousEnd) bytes passed the \(limits.maxHeadBytes)-byte limit")
            previousEnd = end
            eachHead(head)
        }
        if case .error(let error) = whole.stop, let offset = error.offset {
            invariant(offset >= 0 && offset <= input.count - previousEnd,
                      "error \(error) offset outside the \(input.count - previousEnd) bytes of the head")
        }
    }

    /// The two limit sets the head targets use: the defaults, and small ones the fuzzer can reach (head 256,
    /// 8 fields, lines 64).
    public static var limitSets: [HeadLimits] {
        [HeadLimits(), HeadLimits(maxHeadBytes: 256, maxFieldCount: 8, maxStartLineBytes: 64, maxFieldLineBytes: 64)]
    }
}
