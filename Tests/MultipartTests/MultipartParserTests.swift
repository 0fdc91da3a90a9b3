import Multipart
import Testing

@Suite("MultipartParser")
struct MultipartParserTests {
    static let b = "XyZzy"

    @Test func parsesFieldAndFile() {
        let body = [UInt8](
            "--XyZzy\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n"
                + "--XyZzy\r\ncontent-disposition: form-data; name=\"doc\"; filename=\"a b.txt\"\r\n"
                + "Content-Type: Text/Plain; Charset=UTF-8\r\nX-Extra:  kept  \r\n\r\nline1\r\nline2\r\n"
                + "--XyZzy--\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == nil)
        let parts = outcome.parts
        #expect(parts.count == 2)
        #expect(parts[0].head.name == "title")
        #expect(parts[0].head.filename == nil)
        #expect(parts[0].data == [UInt8]("hello"))
        #expect(parts[1].head.name == "doc")
        #expect(parts[1].head.filename == "a b.txt")
        #expect(parts[1].head.contentType == "text/plain; charset=UTF-8")
        #expect(parts[1].head.headers == [PartHeader(name: "X-Extra", value: "kept")])
        #expect(parts[1].data == [UInt8]("line1\r\nline2"))
        #expect(outcome.events.last == .end)
        #expect(outcome.violations.isEmpty)
        #expect(parts[1].head.offset == 62)
    }

    @Test func emptyFormIsJustTheCloseDelimiter() {
        let outcome = SplitFeeder.verify([UInt8]("--XyZzy--\r\n"), boundary: Self.b)
        #expect(outcome.events == [.end])
        let noCRLF = SplitFeeder.verify([UInt8]("--XyZzy--"), boundary: Self.b)
        #expect(noCRLF.events == [.end])
    }

    @Test func emptyPartAndEmptyFilename() {
        let body = [UInt8](
            "--XyZzy\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n\r\n--XyZzy--\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == nil)
        #expect(outcome.parts.count == 1)
        #expect(outcome.parts[0].head.filename == "")
        #expect(outcome.parts[0].data.isEmpty)
        #expect(outcome.events == [.head(outcome.parts[0].head), .partEnd, .end])
    }

    @Test(arguments: [
        "--XyZz", "\r\n--XyZz", "--XyZzyy", "\n--XyZzy", "\r--XyZzy", "\r\n-XyZzy\r\n", "X\r\n--", "\r\r\n\r\n--Xy",
        "--XyZzy ", "\r\n\r\n\r\n\r", "-\r\n--XyZz\r\n--XyZzz",
    ])
    func boundaryLookalikesInDataAreData(_ lookalike: String) {
        // CRLF--B followed by garbage is a delimiter (rejected), so look-alikes here stop short of that.
        let data = "a" + lookalike + "b"
        guard !data.contains("\r\n--XyZzy") else { return }
        let body = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n" + data + "\r\n--XyZzy--\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.data == [UInt8](data))
    }

    @Test func dataEndingInCRAtEverySpanEdgeIsNotHeld() {
        // A chunk ending in CR, CR LF, CR LF -: all become data once the next byte shows no delimiter.
        let data = "x\r\r\n\r\n-\r\n--\r\n--X\r\n--XyZz\r\n--XyZzq"
        let body = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n" + data + "\r\n--XyZzy--")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.parts.first?.data == [UInt8](data))
    }

    @Test func delimiterFollowedByGarbageIsRejected() {
        let body = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzyX\r\n--XyZzy--\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == MultipartError(.flag(.delimiterGarbage), part: 0, offset: 63))
        let dashOnly = SplitFeeder.verify([UInt8]("--XyZzy-\r\n"), boundary: Self.b)
        #expect(dashOnly.error?.reason == .flag(.delimiterGarbage))
        let bareCR = SplitFeeder.verify([UInt8]("--XyZzy\rX"), boundary: Self.b)
        #expect(bareCR.error?.reason == .flag(.delimiterGarbage))
    }

    @Test func transportPaddingIsAllowedByDefaultAndCanBeRejected() throws {
        let body = [UInt8]("--XyZzy \t\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzy-- \r\n")
        let allowed = SplitFeeder.verify(body, boundary: Self.b)
        #expect(allowed.error == nil && allowed.violations.isEmpty)
        let normalize = try Strictness([.transportPadding: .normalize])
        let reported = SplitFeeder.verify(body, boundary: Self.b, strictness: normalize)
        #expect(reported.violations == [.transportPadding])
        let reject = try Strictness([.transportPadding: .reject])
        #expect(SplitFeeder.verify(body, boundary: Self.b, strictness: reject).error?.reason == .flag(.transportPadding))
    }

    @Test func preambleIsNormalizedByDefault() throws {
        let body = [UInt8]("This is a preamble.\r\n--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzy--\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == nil)
        #expect(outcome.violations == [.preamble])
        #expect(outcome.parts.map(\.data) == [[UInt8]("v")])
        let reject = SplitFeeder.verify(body, boundary: Self.b, strictness: try Strictness([.preamble: .reject]))
        #expect(reject.error == MultipartError(.flag(.preamble), offset: 0))
        let allow = SplitFeeder.verify(body, boundary: Self.b, strictness: try Strictness([.preamble: .allow]))
        #expect(allow.error == nil && allow.violations.isEmpty)
        let leadingCRLF = SplitFeeder.verify([UInt8]("\r\n--XyZzy--\r\n"), boundary: Self.b)
        #expect(leadingCRLF.violations == [.preamble] && leadingCRLF.error == nil)
    }

    @Test func epilogueIsNormalizedByDefault() throws {
        let body = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzy--\r\ntrailing junk\r\n--XyZzy\r\n")
        let outcome = SplitFeeder.verify(body, boundary: Self.b)
        #expect(outcome.error == nil)
        #expect(outcome.violations == [.epilogue])
        #expect(outcome.parts.count == 1)
        let reject = SplitFeeder.verify(body, boundary: Self.b, strictness: try Strictness([.epilogue: .reject]))
        #expect(reject.error == MultipartError(.flag(.epilogue), offset: 67))
        let glued = SplitFeeder.verify([UInt8]("--XyZzy--junk"), boundary: Self.b)
        #expect(glued.violations == [.epilogue])
    }

    @Test func lfOnlyBodiesAreRejectedOrNormalizedWhole() throws {
        let body = [UInt8]("--XyZzy\nContent-Disposition: form-data; name=\"x\"\n\nline\r\nv\n--XyZzy--\n")
        #expect(SplitFeeder.verify(body, boundary: Self.b).error == MultipartError(.flag(.lfLine), offset: 7))
        let normalized = SplitFeeder.verify(body, boundary: Self.b, strictness: try Strictness([.lfLine: .normalize]))
        #expect(normalized.error == nil)
        #expect(normalized.violations == [.lfLine])
        #expect(normalized.parts.map(\.data) == [[UInt8]("line\r\nv")])
    }

    @Test func mixedLineEndingsAreRejectedEvenWhenLFIsNormalized() throws {
        let strictness = try Strictness([.lfLine: .normalize])
        let crlfThenLF = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\n\nv\r\n--XyZzy--\r\n")
        #expect(SplitFeeder.verify(crlfThenLF, boundary: Self.b, strictness: strictness).error?.reason
            == .flag(.mixedLineEndings))
        let lfThenCRLF = [UInt8]("--XyZzy\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\n--XyZzy--\n")
        #expect(SplitFeeder.verify(lfThenCRLF, boundary: Self.b, strictness: strictness).error?.reason
            == .flag(.mixedLineEndings))
    }

    @Test func missingFinalBoundary() throws {
        let truncated = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nvalue")
        #expect(SplitFeeder.verify(truncated, boundary: Self.b).error == MultipartError(
            .flag(.missingFinalBoundary), part: 0, offset: Int64(truncated.count)))
        let normalize = try Strictness([.missingFinalBoundary: .normalize])
        // Still rejected: the last part's data ran into the end.
        #expect(SplitFeeder.verify(truncated, boundary: Self.b, strictness: normalize).error != nil)
        let hyphensMissing = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzy\r\n")
        #expect(SplitFeeder.verify(hyphensMissing, boundary: Self.b).error?.reason == .flag(.missingFinalBoundary))
        let normalized = SplitFeeder.verify(hyphensMissing, boundary: Self.b, strictness: normalize)
        #expect(normalized.error == nil)
        #expect(normalized.violations == [.missingFinalBoundary])
        #expect(normalized.parts.count == 1)
        let bareDelimiter = [UInt8]("--XyZzy\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--XyZzy")
        #expect(SplitFeeder.verify(bareDelimiter, boundary: Self.b, strictness: normalize).error == nil)
        #expect(SplitFeeder.verify([], boundary: Self.b, strictness: normalize).error?.reason
            == .flag(.missingFinalBoundary))
        #expect(SplitFeeder.verify([UInt8]("no delimiter at all"), boundary: Self.b).error?.reason
            == .flag(.missingFinalBoundary))
    }

    @Test func bodyEndingAfterTheFirstDelimiterConcernsNoPart() throws {
        // No part was opened: the error has no part index (it used to say part -1).
        #expect(SplitFeeder.verify([UInt8]("--XyZzy"), boundary: Self.b).error
            == MultipartError(.flag(.missingFinalBoundary), part: nil, offset: 7))
        #expect(SplitFeeder.verify([UInt8]("--XyZzy-"), boundary: Self.b).error
            == MultipartError(.flag(.missingFinalBoundary), part: nil, offset: 8))
        let normalize = try Strictness([.missingFinalBoundary: .normalize])
        let normalized = SplitFeeder.verify([UInt8]("--XyZzy \t"), boundary: Self.b, strictness: normalize)
        #expect(normalized.events == [.violation(MultipartViolation(flag: .missingFinalBoundary, part: nil, offset: 9)), .end])
    }

    @Test func parsingAfterAnErrorKeepsFailing() {
        var parser = MultipartParser(boundary: Boundary("b")!)
        var handler = RecordingHandler()
        let bad = [UInt8]("--b\r\nX : y\r\n\r\n")
        #expect(throws: MultipartError.self) { try bad.withUnsafeBytes { try parser.parse($0, into: &handler) } }
        #expect(throws: MultipartError.self) { try [UInt8]("x").withUnsafeBytes { try parser.parse($0, into: &handler) } }
        #expect(throws: MultipartError.self) { try parser.finish(into: &handler) }
    }
}
