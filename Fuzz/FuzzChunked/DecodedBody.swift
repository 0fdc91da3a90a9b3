import HTTP1

/// What `ChunkedDecoder` makes of a byte stream: the data bytes, where the body ended, or the error.
struct DecodedBody: Equatable {
    enum Stop: Equatable {
        /// Every byte was read; the body has not ended.
        case needMore
        /// The last chunk and trailer section ended at this stream offset.
        case end(Int)
        case error(HTTP1Error)
    }

    var data: [UInt8] = []
    var stop: Stop = .needMore
    /// What `finish()` said once the input was read (or the body ended, or failed).
    var finish: HTTP1Error?

    /// Decodes `input` in the pieces `cuts` makes, as the engine does: after a data range, the rest of the
    /// piece (even empty) is fed again.
    static func decode(_ input: UnsafeRawBufferPointer, limits: ChunkedLimits, cuts: [Int]) -> DecodedBody {
        var decoder = ChunkedDecoder(limits: limits)
        var result = DecodedBody()
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < input.count }) + [input.count] {
            var rest = UnsafeRawBufferPointer(rebasing: input[start..<end])
            var restStart = start
            feeding: while true {
                switch decoder.decode(rest) {
                case .needMore:
                    break feeding
                case .data(let range):
                    result.data += rest[range]
                    restStart += range.upperBound
                    rest = UnsafeRawBufferPointer(rebasing: rest[range.upperBound...])
                case .end(let consumed):
                    result.stop = .end(restStart + consumed)
                    result.finish = decoder.finish()
                    return result
                case .error(let error):
                    result.stop = .error(error)
                    result.finish = decoder.finish()
                    return result
                }
            }
            start = end
        }
        result.finish = decoder.finish()
        return result
    }
}
