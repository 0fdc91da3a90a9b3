import HTTP1

/// What `ResponseHeadParser` reads from a byte stream: the heads it completed, in order, with the stream
/// offset just past each, and how the reading stopped. After a head the bytes that follow are fed again,
/// as the engine does after an interim (1xx) head.
struct ResponseSequence: Equatable {
    enum Stop: Equatable {
        /// Every byte was read and the parser waits for more (idle or inside a head).
        case needMore(idle: Bool)
        /// The parser failed.
        case error(HTTP1Error)
    }

    var heads: [ResponseHead] = []
    /// Stream offset just past each head.
    var ends: [Int] = []
    var stop: Stop = .needMore(idle: true)

    /// At most this many heads are read from one input (the rest is ignored).
    static let maxHeads = 16

    /// Feeds `input` to one parser in the pieces `cuts` makes (sorted offsets inside the input).
    static func read(_ input: UnsafeRawBufferPointer, limits: HeadLimits, cuts: [Int]) -> ResponseSequence {
        var parser = ResponseHeadParser(limits: limits)
        var result = ResponseSequence()
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
}
