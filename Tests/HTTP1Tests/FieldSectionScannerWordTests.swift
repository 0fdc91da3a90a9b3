import Testing

@testable import HTTP1

/// The eight-byte fast paths of the field scanner: the value run's control test and the Content-Length name
/// comparison, against the byte-at-a-time rules they stand in for.
@Suite struct FieldSectionScannerWordTests {
    private static func isControlOrDelete(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    /// Calls `check` with every eight-byte word made of one of `fillers` with any byte at any position (the word
    /// loaded as the scanner loads it: the first byte in the lowest bits).
    private static func everyByteAtEveryPosition(
        among fillers: [UInt8], _ check: (_ word: UInt64, _ bytes: [UInt8], _ byte: UInt8, _ position: Int) -> Void
    ) {
        for filler in fillers {
            for byte in UInt8.min...UInt8.max {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = byte
                    check(bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }, bytes, byte, position)
                }
            }
        }
    }

    @Test func controlTestIsExactForEveryByteAtEveryPosition() {
        Self.everyByteAtEveryPosition(among: [0x61, 0x20, 0x7E, 0x80, 0xFF, 0x21]) { word, bytes, byte, position in
            #expect(
                FieldSectionScanner.hasControlOrDelete(word) == bytes.contains(where: Self.isControlOrDelete),
                "byte \(byte) at \(position) among \(bytes)")
        }
    }

    @Test func controlTestMatchesBytesForRandomWords() {
        var random = SplitMix64(seed: 0x5EED)
        let interesting: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xFF, 0x41]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in interesting[Int(random.next() % UInt64(interesting.count))] }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(FieldSectionScanner.hasControlOrDelete(word) == bytes.contains(where: Self.isControlOrDelete))
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D
    }

    /// The name word test flags exactly the bytes that are not letters, digits or `-`, at their own positions.
    @Test func nameTestIsExactForEveryByteAtEveryPosition() {
        Self.everyByteAtEveryPosition(among: [0x61, 0x5A, 0x2D, 0x30, 0x7A, 0x41]) { word, _, byte, position in
            let expected = Self.isNameByte(byte) ? 0 : UInt64(0x80) << (8 * position)
            #expect(FieldSectionScanner.nonNameBytes(word) == expected, "byte \(byte) at \(position)")
        }
    }

    @Test func nameTestMatchesBytesForRandomWords() {
        var random = SplitMix64(seed: 0x7A3E)
        let interesting: [UInt8] = [
            0x00, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x5F, 0x60, 0x61, 0x7A, 0x7B, 0x7F,
            0x80, 0xAD, 0xC1, 0xFF, 0x21, 0x20,
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in interesting[Int(random.next() % UInt64(interesting.count))] }
            let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            var expected: UInt64 = 0
            for (position, byte) in bytes.enumerated() where !Self.isNameByte(byte) { expected |= 0x80 << (8 * position) }
            #expect(FieldSectionScanner.nonNameBytes(word) == expected, "\(bytes)")
        }
    }

    /// A request head of `prefix`, `count` bytes of `filler` with `byte` at `position`, then `suffix`, fed under every
    /// split: the filled bytes, the outcome, and the head offset of `byte`.
    private static func head(
        _ prefix: String, filler: Unicode.Scalar, count: Int, byte: UInt8, at position: Int, then suffix: String
    ) -> (filled: [UInt8], outcome: HeadOutcome<RequestHead>, offset: Int) {
        var filled = [UInt8](repeating: UInt8(ascii: filler), count: count)
        filled[position] = byte
        let bytes = Array(prefix.utf8) + filled + Array(suffix.utf8)
        let outcome = SplitFeeder.verify(bytes) { HeadFeeding.request($0, parser: RequestHeadParser()) }
        return (filled, outcome, prefix.utf8.count + position)
    }

    /// Every byte at every position of a 20-byte field name (in an eight-byte word, the tail after the words, or
    /// the byte that stops a word): accepted as part of the name exactly when it is a tchar, else refused with the
    /// byte machine's error at its offset. Under every split (SplitFeeder).
    @Test(arguments: [UInt8(0x00), 0x09, 0x0A, 0x0D, 0x20, 0x21, 0x22, 0x2C, 0x2F, 0x40, 0x5B, 0x5F, 0x7C, 0x7F, 0x80, 0xFF])
    func everyByteAtEveryNamePosition(byte: UInt8) {
        for position in 0..<20 {
            let (name, outcome, offset) = Self.head(
                "GET / HTTP/1.1\r\nHost: a\r\n", filler: "n", count: 20, byte: byte, at: position, then: ": v\r\n\r\n")
            switch byte {
            case 0x21, 0x5F, 0x7C:
                #expect(outcome.head?.fields.last?.name == String(decoding: name, as: UTF8.self), "at \(position)")
            case 0x09 where position == 0, 0x20 where position == 0:
                #expect(outcome == .error(HTTP1Error(.obsFold, offset: offset)), "at \(position)")
            case 0x0D where position == 0:
                #expect(outcome == .error(HTTP1Error(.bareCR, offset: offset)), "at \(position)")
            case 0x09, 0x20:
                #expect(outcome == .error(HTTP1Error(.whitespaceBeforeColon, offset: offset)), "at \(position)")
            case 0x0A:
                #expect(outcome == .error(HTTP1Error(.bareLF, offset: offset)), "at \(position)")
            case 0x0D:
                #expect(outcome == .error(HTTP1Error(.missingColon, offset: offset)), "at \(position)")
            default:
                #expect(outcome == .error(HTTP1Error(.invalidFieldName, offset: offset)), "at \(position)")
            }
        }
    }

    /// Every byte at every position of a 40-byte value (so that it falls in an eight-byte word, its tail, or both):
    /// the head is refused at that byte exactly when the byte is not allowed in a value, and otherwise keeps the
    /// value with its leading and trailing whitespace trimmed. Under every split (SplitFeeder).
    @Test(arguments: [UInt8(0x00), 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x7F, 0x80, 0xFF])
    func everyByteAtEveryValuePosition(byte: UInt8) {
        for position in 0..<40 {
            let (value, outcome, offset) = Self.head(
                "GET / HTTP/1.1\r\nHost: a\r\nX-Long: ", filler: "v", count: 40, byte: byte, at: position, then: "\r\n\r\n")
            switch byte {
            case 0x0A:
                #expect(outcome == .error(HTTP1Error(.bareLF, offset: offset)), "at \(position)")
            case 0x0D:
                // A CR ends the value; the LF expected after it is a `v` (or the CR of the line end).
                #expect(outcome == .error(HTTP1Error(.bareCR, offset: offset)), "at \(position)")
            case 0x09, 0x20, 0x80, 0xFF:
                var expected = value
                while let last = expected.last, last == 0x20 || last == 0x09 { expected.removeLast() }
                while let first = expected.first, first == 0x20 || first == 0x09 { expected.removeFirst() }
                #expect(outcome.head?.fields.last?.valueBytes == expected, "at \(position)")
            default:
                #expect(outcome == .error(HTTP1Error(.invalidFieldValue, offset: offset)), "at \(position)")
            }
        }
    }

    /// Field names near `content-length` in every case: only the name itself (any case) is a Content-Length, so
    /// only it trips the duplicate check at the second line's colon.
    @Test(arguments: [
        ("Content-Length", true), ("CONTENT-LENGTH", true), ("content-length", true), ("cOnTeNt-LeNgTh", true),
        ("Content-Lengthx", false), ("Content-Lengt", false), ("Content-Type", false), ("Contentxlength", false),
        ("Content_Length", false), ("Xontent-Length", false), ("Content-Lengtz", false), ("Connection", false),
        ("Content-Lmngth", false), ("Content-", false),
    ])
    func contentLengthNames(name: String, isContentLength: Bool) {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\(name): 2\r\n\r\n"
        let outcome = SplitFeeder.verify(Array(text.utf8)) { HeadFeeding.request($0, parser: RequestHeadParser()) }
        if isContentLength {
            let offset = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n".utf8.count
            #expect(outcome == .error(HTTP1Error(.duplicateContentLength, offset: offset)))
        } else {
            #expect(outcome.head?.fields.count == 3)
        }
    }

    /// Content-Length lines that the whole-line path takes in one step (the head's first, 1 to 18 digits) and the
    /// ones it leaves to the byte machine: each is accepted with its value, or refused with the byte machine's
    /// error at its offset, under every split.
    @Test(arguments: [
        ("2040", nil, nil), ("  2040 \t", nil, nil), ("0", nil, nil), ("000123", nil, nil),
        ("123456789012345678", nil, nil), ("9223372036854775807", nil, nil),
        ("9223372036854775808", HTTP1Error.Code.contentLengthOverflow, 18), ("12 34", .invalidContentLength, 3),
        ("1a", .invalidContentLength, 1), ("+5", .invalidContentLength, 0), ("", .invalidContentLength, 0),
        ("5, 5", .invalidContentLength, 1),
    ] as [(String, HTTP1Error.Code?, Int?)])
    func contentLengthValues(value: String, error: HTTP1Error.Code?, at position: Int?) {
        let prefix = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: "
        let text = prefix + value + "\r\nX-After: b\r\n\r\n"
        let outcome = SplitFeeder.verify(Array(text.utf8)) { HeadFeeding.request($0, parser: RequestHeadParser()) }
        if let error, let position {
            #expect(outcome == .error(HTTP1Error(error, offset: prefix.utf8.count + position)), "\(value)")
        } else {
            let trimmed = String(value.filter { $0 != " " && $0 != "\t" })
            #expect(outcome.head?.fields.count == 3, "\(value)")
            #expect(outcome.head?.fields.first(where: { $0.name.lowercased() == "content-length" })?.value == trimmed)
        }
    }

    /// A second Content-Length fails at its colon after a first that the whole-line path took.
    @Test func duplicateAfterWholeLineContentLength() {
        let first = "POST / HTTP/1.1\r\nContent-Length: 10\r\n"
        let text = first + "content-length: 10\r\n\r\n"
        let outcome = SplitFeeder.verify(Array(text.utf8)) { HeadFeeding.request($0, parser: RequestHeadParser()) }
        #expect(outcome == .error(HTTP1Error(.duplicateContentLength, offset: first.utf8.count)))
    }
}
