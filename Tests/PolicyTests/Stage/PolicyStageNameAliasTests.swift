import Multipart
import Testing

@testable import Policy

/// Rules match names as backends read them, not only as sent: each case here passed a rule before.
@Suite("PolicyStage: names as backends read them")
struct PolicyStageNameAliasTests {
    static let strip = Rule(name: "drop-internal", match: RuleMatch(field: Build.names("internal_*")), strip: true)

    /// Django trims a field name; PHP turns ` ` and `.` into `_`, a `[` without `]` into `_`, and reads `a[b]` as
    /// the array `a`. Each of these is `internal_…` to one of them.
    @Test(arguments: [" internal_admin", "internal_admin\t", "internal.admin", "internal admin", "internal[admin",
                      " internal.x", "internal_x[key]",
                      // RFC 2047 encoded-words, which Python's email parser decodes:
                      "=?utf-8?q?internal=5Fadmin?=", "=?UTF-8?B?aW50ZXJuYWxfYWRtaW4=?=",
                      "=?iso-8859-1?Q?inter?= =?utf-8?q?nal_x?=", "=?utf-8?b?aW50ZXJuYWwuYWRtaW4?=",
                      "=?utf-8?q?inter?=nal_admin"])
    func aFieldRuleTakesTheNamesBackendsRewrite(name: String) throws {
        let body = FormBody([FormPart("note", text: "hello"), FormPart(name, text: "1")])
        let run = try PolicyHarness.runEverySplit(Build.route([Self.strip]), body)
        #expect(run.parts.map(\.head.name) == ["note"])
        #expect(run.records.map(\.decision) == [.pass, .strip])
    }

    @Test(arguments: ["internals", "internal", "internal[]", "in ternal_x", "note.internal_x",
                      "=?utf-8?q?note?=", "=?utf-8?x?internal_x?=", "x =?utf-8?q?internal_x?=", "=?utf-8?q?internal=ZZ?="])
    func namesNoBackendReadsAsTheRuleStillPass(name: String) throws {
        let body = FormBody([FormPart(name, text: "1")])
        let run = try PolicyHarness.run(Build.route([Self.strip]), body.bytes)
        #expect(run.parts.map(\.head.name) == [name])
    }

    @Test func encodedWordsDecodeAsPythonsEmailParserDoes() {
        #expect(EncodedWords.decode("=?utf-8?q?a_b=C3=A9?=") == "a bé")
        #expect(EncodedWords.decode("=?utf-8?b?w6k=?=  =?iso-8859-1?q?=E9?=") == "éé")
        #expect(EncodedWords.decode("=?utf-8?q?a?= tail") == "a tail")
        #expect(EncodedWords.decode("x=?utf-8?q?y?=z") == "xyz")
        #expect(EncodedWords.decode("=?utf-8?q?unterminated") == nil)
        #expect(EncodedWords.decode("plain") == nil)
    }

    @Test func aliasesOfTheUsualNameAreNone() {
        #expect(FieldNameAliases.aliases(of: "avatar_2-x").isEmpty)
        #expect(FieldNameAliases.aliases(of: " a.b") == ["a.b", "a_b"])
    }

    /// A filename glob matches the name as forwarded too: `x.php.` and `x.php ` go upstream as `x.php`.
    @Test(arguments: ["x.php.", "x.php ", "x.php", "dir/x.php"])
    func aFilenameRuleTakesTheSanitisedName(filename: String) throws {
        let rule = Rule(name: "no-php", match: RuleMatch(filename: Build.names("*.php")), reject: .init(status: 403))
        let body = FormBody([FormPart("f", filename: filename, text: "<?php")])
        let run = try PolicyHarness.run(Build.route([rule]), body.bytes)
        #expect(run.rejection?.rule == "no-php")
    }

    /// A template that renders empty (`{ext}` of a name without one) names the file `unnamed`: an empty
    /// filename would tell the backend "no file chosen" while the part carries bytes.
    @Test func aRenameThatRendersEmptyKeepsAFileName() throws {
        let rule = Rule(name: "ext", match: RuleMatch(hasFilename: true), rename: .init(filename: Build.template("{ext}")))
        let body = FormBody([FormPart("f", filename: "a", text: "data"), FormPart("g", filename: "b.txt", text: "x")])
        let run = try PolicyHarness.run(Build.route([rule]), body.bytes)
        #expect(run.parts.map(\.head.filename) == ["unnamed", "txt"])  // no hidden files: the dot goes
    }
}
