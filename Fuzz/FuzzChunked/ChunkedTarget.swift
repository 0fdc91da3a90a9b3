import FuzzSupport
import HTTP1

/// `ChunkedDecoder` on arbitrary bytes, checked three ways.
///
/// 1. Split invariance: the data, the end offset or the error (code and offset) are the same whether the
///    input comes whole, one byte at a time, or cut at two points the input's own bytes choose.
/// 2. Bounds: the data is never more than the input; an error offset lies within the input; the end offset
///    lies within the input; a body that ended reports no error at `finish()`, one that did not reports
///    `truncated_body` (or its error).
/// 3. Round trip: the decoded data, re-encoded by `ChunkedEncoder` in chunks of a size the input chooses,
///    decodes to the same data and ends exactly at the encoding's end.
///
/// Two limit sets: the defaults, and small ones the fuzzer can reach (chunk 64, extensions 16, trailers 64
/// bytes and 2 fields).
enum ChunkedTarget {
    static let limitSets = [
        ChunkedLimits(),
        ChunkedLimits(maxChunkSize: 64, maxExtensionBytes: 16, maxTrailerBytes: 64, maxTrailerFields: 2),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        for limits in limitSets {
            check(input, limits: limits)
        }
    }

    static func check(_ input: UnsafeRawBufferPointer, limits: ChunkedLimits) {
        let whole = DecodedBody.decode(input, limits: limits, cuts: [])
        let bytewise = DecodedBody.decode(input, limits: limits, cuts: Array(0..<input.count))
        invariant(whole == bytewise, "byte-at-a-time decoding differs:\n whole \(whole)\n bytes \(bytewise)")
        let cuts = cutPoints(in: input)
        let split = DecodedBody.decode(input, limits: limits, cuts: cuts)
        invariant(whole == split, "decoding cut at \(cuts) differs:\n whole \(whole)\n split \(split)")
        invariant(whole.data.count <= input.count, "more data than input")
        switch whole.stop {
        case .end(let offset):
            invariant(offset <= input.count, "end offset \(offset) past the input")
            invariant(whole.finish == nil, "finish() after the end reports \(whole.finish!)")
            roundTrip(whole.data, chunkSize: chunkSize(input), limits: limits)
        case .error(let error):
            invariant((error.offset ?? 0) >= 0 && (error.offset ?? 0) <= input.count,
                      "error \(error) offset outside the input")
            invariant(whole.finish == error, "finish() after \(error) reports \(whole.finish.debugDescription)")
        case .needMore:
            invariant(whole.finish?.code == .truncatedBody,
                      "finish() on an unfinished body reports \(whole.finish.debugDescription)")
        }
    }

    /// A chunk size between 1 and 64 from the input's first byte.
    static func chunkSize(_ input: UnsafeRawBufferPointer) -> Int {
        Int(input.first ?? 0) % 64 + 1
    }

    static func roundTrip(_ data: [UInt8], chunkSize: Int, limits: ChunkedLimits) {
        var wire: [UInt8] = []
        var index = 0
        while index < data.count {
            let end = min(index + chunkSize, data.count)
            ChunkedEncoder.appendChunk(data[index..<end], to: &wire)
            index = end
        }
        wire += ChunkedEncoder.lastChunk
        let decoded = wire.withUnsafeBytes { DecodedBody.decode($0, limits: limits, cuts: []) }
        invariant(decoded == DecodedBody(data: data, stop: .end(wire.count), finish: nil),
                  "\(data.count) bytes in \(chunkSize)-byte chunks decode to \(decoded)")
    }
}
