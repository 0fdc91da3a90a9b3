import Policy
import Testing

@Suite("Glob")
struct GlobTests {
    @Test(arguments: [
        ("internal_*", "internal_", true), ("internal_*", "internal_token", true), ("internal_*", "internal", false),
        ("internal_*", "Internal_x", false), ("*", "", true), ("*", "anything/at all", true), ("", "", true),
        ("", "a", false), ("a?c", "abc", true), ("a?c", "ac", false), ("a?c", "abbc", false),
        ("*.tar.gz", "x.tar.gz", true), ("*.tar.gz", "x.tar.gz.exe", false), ("a*b*c", "aXbYc", true),
        ("a*b*c", "abcbc", true), ("a*b*c", "acb", false), ("**", "x", true), ("?", "é", true), ("??", "é", false),
        ("file\\*", "file*", true), ("file\\*", "files", false), ("a\\?", "a?", true), ("a\\\\b", "a\\b", true),
        ("*avatar", "my_avatar", true), ("avatar*", "avatar", true), ("photo[1]", "photo[1]", true),
    ])
    func matchesCaseSensitively(pattern: String, text: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(text) == expected)
    }

    @Test(arguments: [
        ("image/*", "IMAGE/PNG", true), ("image/png", "Image/Png", true), ("PNG", "png", true),
        ("*.example.com", "API.Example.COM", true), ("image/*", "video/mp4", false), ("É", "é", false),
    ])
    func matchesCaseInsensitivelyForASCIILetters(pattern: String, text: String, expected: Bool) throws {
        #expect(try Glob(pattern, caseInsensitive: true).matches(text) == expected)
    }

    @Test func describesWildcardShape() throws {
        #expect(try Glob("*").matchesEverything)
        #expect(try Glob("**").matchesEverything)
        #expect(try !Glob("a*").matchesEverything)
        #expect(try Glob("avatar").isLiteral)
        #expect(try Glob("a\\*").isLiteral)
        #expect(try !Glob("a?").isLiteral)
        #expect(try Glob("x*y").description == "x*y")
    }

    @Test func refusesATrailingBackslash() {
        #expect(throws: ConfigurationValueError.self) { try Glob("abc\\") }
    }

    @Test func adversarialPatternsStayFast() throws {
        let glob = try Glob(String(repeating: "a*", count: 40) + "b")
        let text = String(repeating: "a", count: 20_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(!glob.matches(text)) }
        #expect(elapsed < .seconds(5))
    }
}
