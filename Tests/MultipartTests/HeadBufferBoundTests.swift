import Testing

@testable import Multipart

/// The part-head buffer holds at most `part_header_bytes`, in every feeding: the recorded fields and a line that
/// straddles a piece edge share one array.
@Suite struct HeadBufferBoundTests {
    /// A head of `fields` header lines, then the Content-Disposition line, folded once (so that the deferred mode
    /// records a continuation too).
    static func head(fields: Int, folded: Bool = true) -> String {
        (0..<fields).map { "X-Field-\($0): \(String(repeating: "v", count: 20 + $0 * 7))\r\n" }.joined()
            + "Content-Disposition: form-data;\(folded ? "\r\n" : "") name=\"a\"\r\n\r\n"
    }

    static let folding = try! Strictness([.headerFolding: .normalize])

    /// Every byte array the head buffer holds, by reflection (so that a second array could not hide).
    static func byteStorage(_ head: HeadBuffer) -> Int {
        Mirror(reflecting: head).children.reduce(0) { $0 + (($1.value as? [UInt8])?.count ?? 0) }
    }

    /// Feeds `body` in `pieces` and returns the largest array the head buffer had after any piece, or the error.
    static func largestHeadStorage(
        _ body: [UInt8], pieces: Int, limits: MultipartLimits
    ) -> (largest: Int, error: MultipartError?, heads: [PartHead]) {
        var parser = MultipartParser(boundary: Boundary("b")!, limits: limits, strictness: folding)
        var handler = RecordingHandler()
        var largest = 0
        var start = 0
        do {
            while start < body.count {
                let end = min(body.count, start + pieces)
                let piece = Array(body[start..<end])
                try piece.withUnsafeBytes { try parser.parse($0, into: &handler) }
                largest = max(largest, Self.byteStorage(parser.head))
                start = end
            }
            try parser.finish(into: &handler)
        } catch let error as MultipartError {
            return (largest, error, handler.parts.map(\.head))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return (largest, nil, handler.parts.map(\.head))
    }

    @Test(arguments: [1, 2, 3, 5, 8, 13, 64])
    func storageNeverPassesTheLimit(pieceSize: Int) throws {
        for fields in [0, 1, 4, 9] {
            let head = Self.head(fields: fields)
            let body = [UInt8]("--b\r\n" + head + "v\r\n--b\r\n" + head + "w\r\n--b--")
            let limit = head.utf8.count
            let outcome = Self.largestHeadStorage(body, pieces: pieceSize, limits: MultipartLimits(partHeaderBytes: limit))
            #expect(outcome.error == nil, "\(fields) fields, pieces of \(pieceSize)")
            #expect(outcome.heads.map(\.name) == ["a", "a"])
            #expect(outcome.heads.first?.headers.count == fields)
            #expect(outcome.largest <= limit, "\(outcome.largest) bytes held under a \(limit)-byte limit")
        }
    }

    /// The values recorded from lines that straddled piece edges and were moved down in place read back whole.
    @Test func fieldsMovedInPlaceReadBack() throws {
        let head = "X-One:   first value  \r\nX-Two:second\r\nX-Three: a\r\n\tb\r\n \t c\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n\r\n"
        let body = [UInt8]("--b\r\n" + head + "v\r\n--b--")
        let outcome = SplitFeeder.verify(body, boundary: "b", strictness: Self.folding)
        #expect(outcome.error == nil)
        let headers = try #require(outcome.parts.first).head.headers
        #expect(headers.map(\.name) == ["X-One", "X-Two", "X-Three"])
        #expect(headers.map(\.value) == ["first value", "second", "a b c"])
    }

    /// One byte under the head's size is refused in every feeding, and nothing past the limit is held first.
    @Test(arguments: [1, 7, 64])
    func oneByteUnderIsRefusedWithinTheLimit(pieceSize: Int) {
        let head = Self.head(fields: 4)
        let body = [UInt8]("--b\r\n" + head + "v\r\n--b--")
        let limit = head.utf8.count - 1
        let outcome = Self.largestHeadStorage(body, pieces: pieceSize, limits: MultipartLimits(partHeaderBytes: limit))
        #expect(outcome.error?.reason == .limit(.partHeaderBytes))
        #expect(outcome.largest <= limit)
    }
}

extension HeadBufferBoundTests {
    /// Lending the array out to read a straddling line and taking it back copies nothing: once the array has
    /// grown for the first part's head, the second, identical head is read in the same storage, byte by byte.
    @Test(arguments: [false, true])
    func straddlingLinesReuseTheStorage(deferred: Bool) throws {
        let head = Self.head(fields: 3, folded: deferred)
        let body = [UInt8]("--b\r\n" + head + "v\r\n--b\r\n" + head + "w\r\n--b--")
        var parser = MultipartParser(boundary: Boundary("b")!, strictness: deferred ? Self.folding : Strictness())
        var handler = RecordingHandler()
        var moves = 0
        var last: UInt?
        let secondHead = body.count - (head.utf8.count + "w\r\n--b--".utf8.count)
        for (offset, byte) in body.enumerated() {
            try [byte].withUnsafeBytes { try parser.parse($0, into: &handler) }
            if offset >= secondHead {
                let address = parser.head.bytes.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
                if let last, last != address { moves += 1 }
                last = address
            }
        }
        try parser.finish(into: &handler)
        #expect(handler.parts.map(\.head.name) == ["a", "a"])
        #expect(moves == 0, "the head's storage moved \(moves) times in the second part")
    }
}
