import HTTP1

/// What `RequestHeadParser` reads from a byte stream: the heads it completed, in order, with the stream
/// offset just past each, and how the reading stopped.
struct HeadSequence: Equatable {
    enum Stop: Equatable {
        /// Every byte was read and the parser waits for more (idle or inside a head).
        case needMore(idle: Bool)
        /// The parser failed.
        case error(HTTP1Error)
    }

    var heads: [RequestHead] = []
    /// Stream offset just past each head.
    var ends: [Int] = []
    var stop: Stop = .needMore(idle: true)

    /// At most this many heads are read from one input (pipelined heads; the rest is ignored).
    static let maxHeads = 16

    /// Feeds `input` to one parser in the pieces `cuts` makes (sorted offsets inside the input), re-feeding
    /// the bytes after each completed head as the engine does for pipelined requests.
    static func read(_ input: UnsafeRawBufferPointer, limits: HeadLimits, cuts: [Int]) -> HeadSequence {
        var parser = RequestHeadParser(limits: limits)
        var result = HeadSequence()
        var start = 0
        let pieceEnds = cuts.filter { $0 > 0 && $0 < input.count } + [input.count]
        var pieceIndex = 0
        while pieceIndex < pieceEnds.count {
            let end = pieceEnds[pieceIndex]
            if start >= end {
                pieceIndex += 1
                continue
            }
            let piece = UnsafeRawBufferPointer(rebasing: input[start..<end])
            switch parser.feed(piece) {
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
}
