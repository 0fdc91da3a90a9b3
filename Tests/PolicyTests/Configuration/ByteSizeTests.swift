import Policy
import Testing

@Suite("ByteSize")
struct ByteSizeTests {
    static let valid: [(String, Int64)] = [
        ("0", 0), ("1048576", 1 << 20), ("512B", 512), ("16KiB", 16 << 10), ("8MiB", 8 << 20),
        ("1GiB", 1 << 30), ("2TiB", 2 << 40), ("5 MiB", 5 << 20), ("5mib", 5 << 20), ("3KIB", 3 << 10),
        ("7b", 7),
    ]

    @Test(arguments: valid)
    func parsesByteCountsAndBinaryUnits(text: String, bytes: Int64) throws {
        #expect(try ByteSize.parse(text) == bytes)
    }

    @Test(arguments: [
        ("16KB", "the unit 'KB' is ambiguous; write 16KiB or a byte count (16000)"),
        ("5MB", "the unit 'MB' is ambiguous; write 5MiB or a byte count (5000000)"),
        ("1GB", "the unit 'GB' is ambiguous; write 1GiB or a byte count (1000000000)"),
        ("10k", "the unit 'k' is ambiguous; write 10KiB or a byte count (10000)"),
        ("2M", "the unit 'M' is ambiguous; write 2MiB or a byte count (2000000)"),
        ("1.5GiB", "sizes are whole numbers"),
        ("5 parsecs", "unknown size unit 'parsecs'"),
        ("MiB", "is not a size"),
        ("-5MiB", "is not a size"),
        ("", "is not a size"),
        ("5 ", "missing unit after the space"),
        ("5  MiB", "unknown size unit ' MiB'"),
        ("99999999999999999999", "is too large"),
        ("9000000TiB", "is too large"),
    ])
    func refusesAmbiguousAndMalformedSizes(text: String, reason: String) {
        #expect {
            try ByteSize.parse(text)
        } throws: { error in
            let error = error as? ConfigurationValueError
            return error?.code == .invalidSize && error?.reason.contains(reason) == true
        }
    }

    @Test func ambiguousUnitWithoutADecimalReadingOnOverflowOffersOnlyTheBinaryOne() throws {
        let error = try #require(throws: ConfigurationValueError.self) { try ByteSize.parse("9999999999999TB") }
        #expect(error.reason == "'9999999999999TB': the unit 'TB' is ambiguous; write 9999999999999TiB")
    }

    static let roundTrips: [Int64] = [0, 1, 1000, 1024, 16 << 10, 8 << 20, 3 << 30, 1 << 40, (1 << 20) + 1]

    @Test(arguments: roundTrips)
    func formatReadsBack(bytes: Int64) throws {
        #expect(try ByteSize.parse(ByteSize.format(bytes)) == bytes)
    }

    @Test func formatPicksTheLargestExactUnit() {
        #expect(ByteSize.format(8 << 20) == "8MiB")
        #expect(ByteSize.format(1536 << 20) == "1536MiB")
        #expect(ByteSize.format(1000) == "1000B")
        #expect(ByteSize.format(0) == "0B")
    }
}
