import Multipart
import Testing

/// Feeds a body to fresh parsers whole, byte by byte, and split at every offset (modeled on swift-nio's
/// ByteToMessageDecoderVerifier), and checks that every feeding gives the same outcome.
enum SplitFeeder {
    /// Parses `body` fed as the given pieces.
    static func parse(
        _ body: [UInt8], boundary: String, pieces: [Int]? = nil,
        limits: MultipartLimits = MultipartLimits(), strictness: Strictness = Strictness()
    ) -> ParseOutcome {
        var parser = MultipartParser(boundary: Boundary(boundary)!, limits: limits, strictness: strictness)
        var handler = RecordingHandler()
        var start = 0
        let cuts = (pieces ?? [body.count]) + [Int.max]
        do {
            for length in cuts where start < body.count {
                let end = length >= body.count - start ? body.count : start + length
                // Copy each piece so that the parser cannot read past it.
                let piece = Array(body[start..<end])
                try piece.withUnsafeBytes { try parser.parse($0, into: &handler) }
                start = end
            }
            try parser.finish(into: &handler)
        } catch let error as MultipartError {
            #expect(handler.offsetErrors == 0)
            return ParseOutcome(events: handler.events, error: error)
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(handler.offsetErrors == 0)
        return ParseOutcome(events: handler.events, error: nil)
    }

    /// Parses `body` whole, byte by byte and split at every offset; records an issue when any feeding
    /// disagrees with the whole one (events for accepted bodies; the error and part heads for rejected ones).
    /// - Returns: the outcome of the whole feeding.
    @discardableResult
    static func verify(
        _ body: [UInt8], boundary: String, limits: MultipartLimits = MultipartLimits(),
        strictness: Strictness = Strictness(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> ParseOutcome {
        let whole = parse(body, boundary: boundary, limits: limits, strictness: strictness)
        var feedings: [(String, [Int])] = [("byte by byte", Array(repeating: 1, count: body.count))]
        if body.count > 1 {
            for cut in 1..<body.count { feedings.append(("split at \(cut)", [cut])) }
        }
        for (label, pieces) in feedings {
            let outcome = parse(body, boundary: boundary, pieces: pieces, limits: limits, strictness: strictness)
            if whole.error == nil {
                #expect(outcome == whole, "\(label)", sourceLocation: sourceLocation)
            } else {
                #expect(outcome.error == whole.error, "\(label)", sourceLocation: sourceLocation)
                #expect(outcome.heads == whole.heads, "\(label)", sourceLocation: sourceLocation)
            }
            if outcome != whole && whole.error == nil { break }  // one report is enough
        }
        return whole
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of a string literal, for fixtures.
    init(_ string: String) { self = Array(string.utf8) }
}
