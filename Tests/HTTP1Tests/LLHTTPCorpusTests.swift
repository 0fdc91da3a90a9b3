import LLHTTPCorpusSupport
import Testing

@testable import HTTP1

/// Runs every llhttp request and response case through the parsers, framing and body decoders as a
/// stream of pipelined messages, fed whole, byte by byte and split at every offset.
///
/// What partgate refuses on purpose is listed in `LLHTTPExpectations` (Tests/Support/LLHTTPCorpus),
/// shared with the proxy-level corpus test in ProxyEngineTests.
@Suite struct LLHTTPCorpusTests {
    typealias Rejection = LLHTTPExpectations.Rejection
    static let strictExceptions = LLHTTPExpectations.strictExceptions
    static let fragmentVariants = LLHTTPExpectations.fragmentVariants
    static let skipped = LLHTTPExpectations.skipped
    static let lenientCases = LLHTTPExpectations.lenientCases

    static func rejection(of transcript: Transcript) -> Rejection? {
        if transcript.end == .dataAfterClose {
            return .dataAfterClose
        }
        return transcript.errorCode.map(Rejection.code)
    }

    static func transcript(_ corpusCase: CorpusCase, input: [UInt8]? = nil) -> Transcript {
        let finish = corpusCase.mode.hasSuffix("-finish")
        return SplitFeeder.verify(input ?? corpusCase.input) { chunks in
            corpusCase.mode.hasPrefix("request")
                ? ConnectionDriver.requests(chunks, finish: finish)
                : ConnectionDriver.responses(
                    chunks,
                    finish: finish,
                    // A client skips a response body exactly when it sent HEAD.
                    requestMethods: corpusCase.skipBody ? Array(repeating: "HEAD", count: 8) : []
                )
        }
    }

    @Test func corpusIsPresentAndRenderedLikeLLHTTP() {
        let cases = LLHTTPCorpus.all
        #expect(cases.count == 251)
        #expect(LLHTTPCorpus.requestCases.count == 166)
        #expect(LLHTTPCorpus.responseCases.count == 85)
        var missingCRLF = 0
        for corpusCase in cases where corpusCase.input != corpusCase.rendered {
            #expect(corpusCase.input == corpusCase.rendered + [13, 10], "\(corpusCase.file)")
            missingCRLF += 1
        }
        #expect(missingCRLF == 166)
    }

    @Test(arguments: LLHTTPCorpus.requestCases)
    func request(_ corpusCase: CorpusCase) {
        check(corpusCase)
    }

    @Test(arguments: LLHTTPCorpus.responseCases)
    func response(_ corpusCase: CorpusCase) {
        check(corpusCase)
    }

    @Test func everyListedCaseExists() {
        let files = Set(LLHTTPCorpus.all.map(\.file))
        let listed =
            Self.strictExceptions.keys.sorted() + Self.lenientCases.keys.sorted() + Self.skipped.keys.sorted()
            + Self.fragmentVariants.keys.sorted()
        for file in listed {
            #expect(files.contains(file), "\(file)")
        }
        let lenient = LLHTTPCorpus.all.filter { $0.mode.contains("lenient") }.map(\.file)
        #expect(Set(lenient) == Set(Self.lenientCases.keys))
        #expect(Self.strictExceptions.keys.allSatisfy { !$0.contains("lenient") })
    }

    /// The proxy-level corpus test adds a Host field to heads without one; that must change no outcome.
    @Test(arguments: LLHTTPCorpus.requestCases)
    func addingHostChangesNoTranscript(_ corpusCase: CorpusCase) {
        let withHost = corpusCase.inputAddingHost()
        let added = corpusCase.messages.filter { $0.headEnd != nil && !$0.hasHost && $0.version?.minor == 1 }.count
        #expect(withHost.count - corpusCase.input.count <= added * "Host: llhttp.test\r\n".utf8.count)
        let before = Self.transcript(corpusCase)
        let after = Self.transcript(corpusCase, input: withHost)
        // Messages and ending, not pendingBody: the skipped case reads the next head, Host and all, as a body.
        #expect(after.messages == before.messages && after.end == before.end, "\(after)")
    }

    static func removing(_ pattern: [UInt8], from bytes: [UInt8]) -> [UInt8] {
        LLHTTPExpectations.removing(pattern, from: bytes)
    }

    private func check(_ corpusCase: CorpusCase) {
        let transcript = Self.transcript(corpusCase)
        let rejection = Self.rejection(of: transcript)
        let messages = transcript.messages.count
        let expected = corpusCase.messagesCompleted
        if let exception = Self.strictExceptions[corpusCase.file] ?? Self.lenientCases[corpusCase.file] {
            #expect(rejection == exception.rejection, "\(transcript)")
            if let expected = exception.withoutFragment {
                let input = Self.removing(Array("#hey".utf8), from: corpusCase.input)
                #expect(input.count == corpusCase.input.count - 4)
                #expect(Self.rejection(of: Self.transcript(corpusCase, input: input)) == expected)
            }
            return
        }
        #expect(!corpusCase.mode.contains("lenient"), "lenient case without an entry in lenientCases")
        let hasFragment = Self.removing(Array("#hey".utf8), from: corpusCase.input) != corpusCase.input
        #expect(hasFragment == (Self.fragmentVariants[corpusCase.file] != nil), "fragment variant table")
        if let expected = Self.fragmentVariants[corpusCase.file] {
            #expect(rejection == .code(.invalidTarget))
            let input = Self.removing(Array("#hey".utf8), from: corpusCase.input)
            #expect(Self.rejection(of: Self.transcript(corpusCase, input: input)) == expected)
            return
        }
        if Self.skipped[corpusCase.file] != nil {
            // The only skipped case: the next request's bytes are read as this one's body.
            #expect(transcript.messages.isEmpty && transcript.end == .open && transcript.pendingBody.count > 0)
            return
        }
        if let finish = corpusCase.finish {
            // llhttp_finish: 0 = clean at a message boundary, 1 = EOF ended the message, 2 = EOF inside one.
            guard case .closed(let error) = transcript.end else {
                Issue.record("expected an end of input, got \(transcript)")
                return
            }
            #expect((error == nil) == (finish != 2), "\(transcript)")
            #expect(messages == expected + (finish == 1 ? 1 : 0), "\(transcript)")
            return
        }
        switch (corpusCase.outcome, corpusCase.llhttpErrorCode) {
        case ("ok", _):
            #expect(rejection == nil && transcript.end == .open, "\(transcript)")
            #expect(messages == expected, "\(transcript)")
        case (_, 22?):
            #expect(transcript.end == .handoff, "\(transcript)")
            #expect(messages == expected, "\(transcript)")
        case (_, 23?):
            #expect(rejection == .code(.unknownMethod), "\(transcript)")
        case (_, 5?):
            #expect(rejection == .dataAfterClose, "\(transcript)")
            #expect(messages == expected, "\(transcript)")
        default:
            #expect(rejection != nil, "\(transcript)")
            #expect(messages <= expected, "\(transcript)")
        }
    }
}
