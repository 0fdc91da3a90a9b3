import Multipart
import Testing

/// `filename=""`: forwarded as it is when the part is empty (a file input left empty); with content it is the
/// `empty_filename` flag, decided at the part's first byte. Every body is fed whole, byte by byte and split
/// at every offset (``SplitFeeder``).
@Suite struct EmptyFilenameTests {
    static func body(data: String, then next: String? = nil) -> [UInt8] {
        var text = "--b\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n" + data + "\r\n"
        if let next { text += "--b\r\nContent-Disposition: form-data; name=\"next\"\r\n\r\n" + next + "\r\n" }
        return [UInt8](text + "--b--\r\n")
    }

    /// The offset of the first part's first content byte (after its blank line).
    static func contentOffset(_ body: [UInt8]) -> Int64 {
        let blank = Array("\r\n\r\n".utf8)
        let index = (0...(body.count - blank.count)).first { Array(body[$0..<$0 + blank.count]) == blank }!
        return Int64(index + blank.count)
    }

    @Test func anEmptyFileInputIsForwardedAsItIs() {
        let outcome = SplitFeeder.verify(Self.body(data: "", then: "x"), boundary: "b", strictness: .rejectingEverything)
        #expect(outcome.error == nil)
        #expect(outcome.violations.isEmpty)
        #expect(outcome.heads.map(\.filename) == ["", nil])
        #expect(outcome.parts.map(\.data) == [[], Array("x".utf8)])
    }

    /// The default: the file is named, the violation points at the first content byte, and the head still comes
    /// before the part's bytes (it is held only until then).
    @Test func contentGetsTheFileANameByDefault() {
        let body = Self.body(data: "admin", then: "x")
        let outcome = SplitFeeder.verify(body, boundary: "b")
        #expect(outcome.error == nil)
        #expect(outcome.violations == [.emptyFilename])
        #expect(outcome.heads.map(\.filename) == [StrictFlag.emptyFilenameReplacement, nil])
        #expect(outcome.heads.first?.name == "upload")
        #expect(outcome.heads.first?.contentType == "application/octet-stream")
        #expect(outcome.parts.map(\.data) == [Array("admin".utf8), Array("x".utf8)])
        let firstByte = Self.contentOffset(body)
        let violation = outcome.events.compactMap { event -> MultipartViolation? in
            if case .violation(let violation) = event { return violation } else { return nil }
        }.first
        #expect(violation?.offset == firstByte)
        #expect(violation?.part == 0)
        guard case .violation = outcome.events.first, case .head = outcome.events.dropFirst().first else {
            Issue.record("expected the violation, then the head: \(outcome.events)")
            return
        }
    }

    @Test func rejectRefusesAtTheFirstByte() throws {
        let body = Self.body(data: "admin")
        let outcome = SplitFeeder.verify(body, boundary: "b", strictness: try Strictness([.emptyFilename: .reject]))
        guard case .flag(.emptyFilename) = outcome.error?.reason else {
            Issue.record("expected empty_filename, got \(String(describing: outcome.error))")
            return
        }
        #expect(outcome.error?.offset == Self.contentOffset(body))
        #expect(outcome.heads.isEmpty)  // nothing of the part went out
    }

    @Test func allowForwardsTheEmptyFilenameWithItsContent() throws {
        let outcome = SplitFeeder.verify(
            Self.body(data: "admin"), boundary: "b", strictness: try Strictness([.emptyFilename: .allow]))
        #expect(outcome.error == nil)
        #expect(outcome.violations.isEmpty)
        #expect(outcome.heads.map(\.filename) == [""])
    }

    /// A named file or a field is not held and not flagged, whatever its content.
    @Test func otherPartsAreNotConcerned() {
        let named = [UInt8](
            "--b\r\nContent-Disposition: form-data; name=\"a\"; filename=\"x\"\r\n\r\ndata\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n\r\n--b--\r\n")
        let outcome = SplitFeeder.verify(named, boundary: "b", strictness: .rejectingEverything)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.filename) == ["x", nil])
    }
}
