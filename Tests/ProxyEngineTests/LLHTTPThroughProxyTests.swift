import Foundation
import HTTP1
import LLHTTPCorpusSupport
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Every llhttp request case sent in one write to a running proxy in front of an echo upstream: what the
/// client gets back, whether the connection closes, and which requests reach the upstream.
///
/// The inputs get a `Host` field where an HTTP/1.1 head has none (``CorpusCase/inputAddingHost(_:)``;
/// partgate answers such requests `400 missing_host`, which ``missingHostIsRefusedBeforeAnythingIsForwarded``
/// checks on the unmodified inputs). The expectations come from llhttp's outcome and the shared exception
/// lists of `LLHTTPExpectations`, plus two proxy-level rules: CONNECT is refused (405), and an upgrade
/// request is forwarded as a plain request with Upgrade and Connection removed (RFC 9110 §7.8 lets a server
/// ignore Upgrade), the bytes after it being read as the next request.
@Suite("llhttp request corpus through the proxy")
struct LLHTTPThroughProxyTests {
    /// What the proxy must do with one input.
    enum Expected: CustomStringConvertible {
        /// `count` requests answered 200 and forwarded; the connection stays open until the client ends it.
        case served(Int)
        /// At most `atMost` requests answered 200 and forwarded, then a problem response and the close.
        /// `status` and `flag` nil: any 4xx (or 501/505) problem.
        case refused(atMost: Int, status: Int?, flag: String?)
        /// Requests answered 200 and forwarded, the last with `Connection: close`; nothing read after it.
        case closedAfter(atMost: Int, exactly: Bool)
        /// `count` requests answered and forwarded, the last an upgrade request without Upgrade/Connection.
        case upgradeIgnored(Int)
        /// `count` requests answered; the next never completes, and ending the stream closes the connection.
        case unfinished(Int)

        var description: String {
            switch self {
            case .served(let count): return "served \(count)"
            case .refused(let most, let status, let flag): return "refused after <= \(most): \(status ?? 0) \(flag ?? "any")"
            case .closedAfter(let most, let exactly): return "closed after \(exactly ? "" : "<= ")\(most)"
            case .upgradeIgnored(let count): return "upgrade ignored at \(count)"
            case .unfinished(let count): return "\(count) then unfinished"
            }
        }

        /// Responses to read before ending the request stream (nil: read until the proxy closes).
        var responsesBeforeEnd: Int? {
            switch self {
            case .served(let count), .upgradeIgnored(let count), .unfinished(let count): return count
            case .refused, .closedAfter: return nil
            }
        }
    }

    /// Cases the HTTP1 parser accepts like llhttp and the engine refuses on purpose, after the head.
    static let proxyExceptions: [String: LLHTTPExpectations.Exception] = [
        "request/sample/03-curl-get.bin": .init(
            .code(.invalidHost),
            "`Host: 0.0.0.0=5000`: `=` is a sub-delim, refused in a Host (docs/http1-conformance.md, Hosts)"),
        "request/sample/04-firefox-get.bin": .init(.code(.invalidHost), "`Host: 0.0.0.0=5000`, as above"),
    ]

    static func expected(_ corpusCase: CorpusCase) -> Expected {
        let count = corpusCase.messagesCompleted
        let rejection = (LLHTTPExpectations.exception(for: corpusCase.file) ?? proxyExceptions[corpusCase.file])?.rejection
            ?? LLHTTPExpectations.fragmentVariants[corpusCase.file].map { _ in .code(.invalidTarget) }
        switch rejection {
        case .code(let code)?: return .refused(atMost: count, status: code.suggestedStatus, flag: code.name)
        case .dataAfterClose?: return .closedAfter(atMost: count, exactly: false)
        case nil: break
        }
        if LLHTTPExpectations.skipped[corpusCase.file] != nil {
            // The next request's head is read as this one's body, which stays incomplete.
            return .unfinished(0)
        }
        if let finish = corpusCase.finish {
            // llhttp_finish = 2: the input ends inside a message, which the client's end of stream cuts off.
            return finish == 2 ? .unfinished(count) : .served(count)
        }
        switch (corpusCase.outcome, corpusCase.llhttpErrorCode) {
        case ("ok", _): return .served(count)
        case (_, 22?):
            return corpusCase.messages.last?.methodCode == 5
                ? .refused(atMost: count - 1, status: 405, flag: "connect_not_allowed") : .upgradeIgnored(count)
        case (_, 23?): return .refused(atMost: count, status: 501, flag: HTTP1Error.Code.unknownMethod.name)
        case (_, 5?): return .closedAfter(atMost: count, exactly: true)
        default: return .refused(atMost: count, status: nil, flag: nil)
        }
    }

    /// What one connection saw.
    struct Observation: CustomStringConvertible {
        var responses: [TestHTTPClient.Response] = []
        var closed = false
        var upstream: [EchoRecord] = []

        var statuses: [Int] { responses.map(\.status) }
        var description: String {
            let flags = responses.map { $0.json?["flag"] as? String ?? "-" }
            return "statuses \(statuses) flags \(flags) closed \(closed) upstream \(upstream.map { "\($0.method) \($0.target)" })"
        }
    }

    /// Sends `input` in one write and reads the responses (`methods[i]` is the i-th request's method, for
    /// HEAD); then ends the request stream and reads until the proxy closes.
    static func observe(_ input: [UInt8], methods: [String], responsesBeforeEnd: Int?) throws -> Observation {
        let harness = try ProxyHarness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 5)
        client.send(input)
        var observation = Observation()
        func method() -> String {
            observation.responses.count < methods.count ? methods[observation.responses.count] : "GET"
        }
        while responsesBeforeEnd.map({ observation.responses.count < $0 }) ?? true,
            let response = client.readResponse(method: method())
        {
            observation.responses.append(response)
            if response.status != 200 { break }
        }
        client.shutdownWrite()
        while let response = client.readResponse(method: method()) { observation.responses.append(response) }
        observation.closed = client.isClosedByPeer()
        observation.upstream = harness.recorder.records
        return observation
    }

    @Test(arguments: LLHTTPCorpus.requestCases)
    func request(_ corpusCase: CorpusCase) throws {
        let expected = Self.expected(corpusCase)
        let seen = try Self.observe(
            corpusCase.inputAddingHost(), methods: corpusCase.messages.map(\.method),
            responsesBeforeEnd: expected.responsesBeforeEnd)
        let comment = Comment(rawValue: "expected \(expected); \(seen)")
        let answered = seen.statuses.prefix { $0 == 200 }.count
        #expect(seen.closed, comment)
        switch expected {
        case .served(let count), .unfinished(let count):
            #expect(seen.statuses == Array(repeating: 200, count: count), comment)
        case .refused(let most, let status, let flag):
            #expect(answered <= most && seen.responses.count == answered + 1, comment)
            let problem = seen.responses.last
            #expect(problem?.header("content-type") == "application/problem+json", comment)
            if let status { #expect(problem?.status == status, comment) } else {
                #expect(problem.map { (400..<500).contains($0.status) || [501, 505].contains($0.status) } == true, comment)
            }
            if let flag { #expect(problem?.json?["flag"] as? String == flag, comment) }
        case .closedAfter(let most, let exactly):
            #expect(seen.statuses == Array(repeating: 200, count: answered) && answered >= 1, comment)
            #expect(exactly ? answered == most : answered <= most, comment)
            #expect(seen.responses.last?.header("connection") == "close", comment)
        case .upgradeIgnored(let count):
            #expect(Array(seen.statuses.prefix(count)) == Array(repeating: 200, count: count), comment)
            let upgrade = seen.upstream.count >= count ? seen.upstream[count - 1] : nil
            #expect(upgrade != nil && upgrade?.field("upgrade") == nil && upgrade?.field("connection") == nil, comment)
            // What llhttp leaves to the new protocol is read as the next request: `Hot diggity dogg` is
            // refused (501 unknown_method), `abcdefgh` waits for more until the client ends the stream.
            #expect(seen.responses.count <= count + 1 && seen.statuses.dropFirst(count).allSatisfy { $0 != 200 }, comment)
        }
        // The upstream got exactly the requests answered 200, in order, as llhttp read them: never one from
        // the message that was refused or cut off.
        #expect(seen.upstream.count == answered, comment)
        for (record, message) in zip(seen.upstream, corpusCase.messages) {
            #expect(record.method == message.method, comment)
            if message.url.hasPrefix("/") { #expect(record.target == message.url, comment) }
            #expect(record.bodyBytes == Int64(message.bodyLength), comment)
            #expect(record.field("via")?.hasSuffix(" partgate") == true, comment)
        }
    }

    /// The unmodified inputs whose first request is a complete HTTP/1.1 head without Host, that llhttp
    /// accepts and partgate does not refuse for another reason first.
    static var casesWithoutHost: [CorpusCase] {
        LLHTTPCorpus.requestCases.filter { corpusCase in
            guard let first = corpusCase.messages.first, first.headEnd != nil, !first.hasHost,
                first.version?.major == 1, first.version?.minor == 1, first.methodCode != 5,
                corpusCase.outcome == "ok", corpusCase.finish == nil,
                LLHTTPExpectations.exception(for: corpusCase.file) == nil
            else { return false }
            return true
        }
    }

    @Test(arguments: casesWithoutHost)
    func missingHostIsRefusedBeforeAnythingIsForwarded(_ corpusCase: CorpusCase) throws {
        let seen = try Self.observe(corpusCase.input, methods: [], responsesBeforeEnd: nil)
        #expect(seen.statuses == [400], "\(seen)")
        #expect(seen.responses.first?.json?["flag"] as? String == HTTP1Error.Code.missingHost.name, "\(seen)")
        #expect(seen.closed && seen.upstream.isEmpty, "\(seen)")
    }
}
