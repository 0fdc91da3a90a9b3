import Multipart
import Testing

@testable import Policy

/// The sequences the real-world proof suite found formidable reading differently (see `UnsafeNameTests`): the
/// sanitiser replaces them, and what it returns the encoder can write.
extension SafeNameTests {
    @Test(arguments: [
        ("&#9731;.txt", "_#9731;.txt"),
        ("snow&#9731;man.png", "snow_#9731;man.png"),
        ("x&#0034;y.txt", "x_#0034;y.txt"),
        ("8\u{2028}97.bin", "8_97.bin"),
        ("a\u{2029}b", "a_b"),
        ("a; name=other.txt", "a; name_other.txt"),
        ("FILENAME=x.txt", "FILENAME_x.txt"),
        ("AT&T #1.txt", "AT&T #1.txt"),
    ])
    func filenamesFormidableReadsDifferently(input: String, expected: String) {
        #expect(SafeName.sanitizeFilename(input) == expected)
        #expect(SafeName.isEncodable(SafeName.sanitizeFilename(input)))
        #expect(SafeName.sanitizeFilename(expected) == expected)
        #expect(!SafeName.isSafeFilename(input) || input == expected)
    }

    @Test(arguments: [
        ("a; filename=x.txt; b", "a; filename_x.txt; b"), ("&#9731;", "_#9731;"), ("x\u{2028}y", "x_y"),
        ("name=other", "name_other"),
    ])
    func fieldNamesFormidableReadsDifferently(input: String, expected: String) {
        #expect(SafeName.sanitizeFieldName(input) == expected)
        #expect(SafeName.isEncodable(SafeName.sanitizeFieldName(input)))
    }
}
