import Multipart
import Testing

/// Runs corpus inputs through the real parser and checks them against a decision.
enum ConformanceCheck {
    /// Parses `body` under `run` whole, byte by byte, split at every offset (``SplitFeeder/verify``) and
    /// fed as each of `feedings` (e.g. busboy's own chunk lengths); every feeding must agree. Then checks
    /// the verdict and, when the body was accepted, its parts against `upstream` (or the run's
    /// `expect_parts`).
    static func body(
        _ body: [UInt8], boundary: String, run: ConformanceRun, upstream: [ExpectedPart]?,
        feedings: [[Int]] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let strictness = try run.makeStrictness()
        let limits = try run.makeLimits()
        let outcome = SplitFeeder.verify(
            body, boundary: boundary, limits: limits, strictness: strictness, sourceLocation: sourceLocation)
        for pieces in feedings {
            let fed = SplitFeeder.parse(
                body, boundary: boundary, pieces: pieces, limits: limits, strictness: strictness)
            if outcome.error == nil {
                #expect(fed == outcome, "fed as \(pieces)", sourceLocation: sourceLocation)
            } else {
                #expect(fed.error == outcome.error, "fed as \(pieces)", sourceLocation: sourceLocation)
                #expect(fed.heads == outcome.heads, "fed as \(pieces)", sourceLocation: sourceLocation)
            }
        }
        let verdict = Verdict(outcome)
        #expect(verdict == run.verdict, "\(outcome)", sourceLocation: sourceLocation)
        guard verdict.isParsed, run.verdict.isParsed else { return }
        #expect(outcome.events.last == .end, sourceLocation: sourceLocation)
        let expected = run.partsCheck == .explicit ? run.expectParts : upstream
        guard let expected else {
            Issue.record(
                "no parts to compare with: give expect_parts and parts_check: explicit", sourceLocation: sourceLocation)
            return
        }
        let mismatches = PartsComparison.mismatches(
            expected: expected, actual: outcome.parts, check: run.partsCheck, filenames: run.filenames)
        for mismatch in mismatches {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }

    /// Checks a full HTTP request: replays it (``RequestReplay``), checks how its Content-Length was
    /// treated, then either the rejection before the body or the body itself.
    static func request(
        _ bytes: [UInt8], replay: Replay, run: ConformanceRun, upstream: [ExpectedPart]?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        switch RequestReplay.read(bytes, replay: replay) {
        case .failure(let rejection):
            #expect(Verdict.reject(rejection.name) == run.verdict, sourceLocation: sourceLocation)
        case .success(let request):
            switch replay.contentLength {
            case .asSent:
                #expect(
                    request.asSentProblem == nil, "the body as declared must fit the bytes",
                    sourceLocation: sourceLocation)
            case .corrected:
                #expect(
                    request.asSentProblem != nil, "a corrected replay needs a wrong Content-Length",
                    sourceLocation: sourceLocation)
                #expect(request.asSentProblem == replay.asSent, sourceLocation: sourceLocation)
            }
            try body(
                request.body, boundary: request.boundary.description, run: run, upstream: upstream,
                sourceLocation: sourceLocation)
        }
    }
}
