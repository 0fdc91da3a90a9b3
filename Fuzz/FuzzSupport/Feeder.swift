import Multipart

/// Feeds a body to a fresh ``MultipartParser`` whole or in pieces and checks what every feeding must
/// satisfy: a rejected parser stays rejected with the same error, an accepted one consumed every byte and
/// is finished, and (when asked) what the parser holds between calls stays within its limits.
public enum Feeder {
    /// Parses `body`.
    /// - Parameters:
    ///   - body: the whole body.
    ///   - boundary: the boundary.
    ///   - limits: the parser limits.
    ///   - strictness: the parser strictness.
    ///   - pieces: piece sizes, used in turn until the body is consumed; nil feeds the body whole. Each piece
    ///     is copied into its own allocation so that AddressSanitizer catches reads past it.
    ///   - checkHeld: after which `parse` calls (numbered from 0; negative numbers count from the last call)
    ///     to measure what the parser holds (see ``HeldBytes``; reflection is slow, so callers sample).
    public static func parse(
        _ body: UnsafeRawBufferPointer, boundary: Boundary, limits: MultipartLimits, strictness: Strictness,
        pieces: [Int]? = nil, checkHeld: Set<Int> = []
    ) -> ParseOutcome {
        var parser = MultipartParser(boundary: boundary, limits: limits, strictness: strictness)
        var log = EventLog(body: body, boundary: boundary)
        let heldBound = checkHeld.isEmpty ? 0 : heldBound(parser, boundary, limits, strictness)
        let cuts = cutPoints(body.count, pieces)
        var error: MultipartError?
        for (call, (start, end)) in cuts.enumerated() {
            let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: end - start, alignment: 1)
            defer { piece.deallocate() }
            piece.copyMemory(from: UnsafeRawBufferPointer(rebasing: body[start..<end]))
            let span = UnsafeRawBufferPointer(piece)
            log.willParse(span, at: Int64(start))
            do {
                try parser.parse(span, into: &log)
            } catch let failure {
                error = failure
                break
            }
            if checkHeld.contains(call) || checkHeld.contains(call - cuts.count) {
                let held = HeldBytes.measure(parser)
                invariant(held <= heldBound,
                          "parser holds \(held) units after \(end) bytes, more than the limits allow (\(heldBound))")
            }
        }
        if error == nil {
            do {
                try parser.finish(into: &log)
            } catch let failure {
                error = failure
            }
        }
        let outcome = ParseOutcome(events: log.events, data: log.data, dataStarts: log.dataStarts, error: error)
        if let error {
            checkStaysFailed(&parser, error, &log)
            invariant(error.offset >= 0 && error.offset <= Int64(body.count),
                      "error \(error) offset outside the body of \(body.count)")
            invariant(!parser.isFinished, "parser finished although it failed with \(error)")
            let heads = outcome.heads.count
            invariant(parser.partsSeen == heads || parser.partsSeen == heads + 1,
                      "partsSeen \(parser.partsSeen) with \(heads) heads after \(error)")
        } else {
            invariant(parser.isFinished, "finish succeeded but isFinished is false")
            invariant(parser.bytesConsumed == Int64(body.count),
                      "bytesConsumed \(parser.bytesConsumed) != body length \(body.count)")
            invariant(parser.partsSeen == outcome.heads.count,
                      "partsSeen \(parser.partsSeen) != \(outcome.heads.count) heads in an accepted body")
            invariant(outcome.events.last == .end, "accepted body did not end with end(): \(outcome)")
        }
        return outcome
    }

    /// What a parser may hold between calls: what it holds fresh (boundary patterns, action table), plus the
    /// header section's array and one field per header line. Cached per boundary length, limits and
    /// strictness (the action table's size depends on it): measuring is slow.
    static func heldBound(
        _ parser: MultipartParser, _ boundary: Boundary, _ limits: MultipartLimits, _ strictness: Strictness
    ) -> Int {
        let key = HeldKey(boundaryLength: boundary.bytes.count, limits: limits, strictness: strictness)
        if let bound = heldBounds[key] { return bound }
        // The head buffer's array (committed fields, then a line straddling a span edge) grows by doubling up to
        // partHeaderBytes and keeps its size from part to part; the field table holds one entry per line.
        let bound = HeldBytes.measure(parser) + limits.partHeaderBytes + limits.headerLines
        heldBounds[key] = bound
        return bound
    }

    private struct HeldKey: Hashable {
        var boundaryLength: Int
        var limits: MultipartLimits
        var strictness: Strictness
    }

    /// Fuzz targets are single-threaded; this cache is only touched from the fuzzing thread.
    nonisolated(unsafe) private static var heldBounds: [HeldKey: Int] = [:]

    /// The pieces a body is fed in: `pieces` sizes in turn (at least 1 byte each), or the whole body.
    public static func cutPoints(_ count: Int, _ pieces: [Int]?) -> [(start: Int, end: Int)] {
        let sizes = pieces.flatMap { $0.isEmpty ? nil : $0 } ?? [max(1, count)]
        var cuts: [(start: Int, end: Int)] = []
        var start = 0
        var next = 0
        while start < count {
            let end = min(count, start + max(1, sizes[next]))
            cuts.append((start, end))
            start = end
            next = next + 1 == sizes.count ? 0 : next + 1
        }
        return cuts
    }

    /// After an error, parse and finish throw the same error and emit nothing.
    private static func checkStaysFailed(
        _ parser: inout MultipartParser, _ error: MultipartError, _ log: inout EventLog
    ) {
        let before = log.events.count
        let dash: [UInt8] = [UInt8(ascii: "-")]
        dash.withUnsafeBytes { more in
            do throws(MultipartError) {
                try parser.parse(more, into: &log)
                invariant(false, "parse after \(error) succeeded")
            } catch let again {
                invariant(again == error, "parse after \(error) threw \(again)")
            }
        }
        do {
            try parser.finish(into: &log)
            invariant(false, "finish after \(error) succeeded")
        } catch let again {
            invariant(again == error, "finish after \(error) threw \(again)")
        }
        invariant(log.events.count == before, "events emitted after \(error)")
    }
}
