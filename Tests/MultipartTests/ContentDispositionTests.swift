import Multipart
import Testing

/// `ContentDisposition.parse` used directly: values, RFC 5987 decoding, and every flag with its offset.
@Suite("ContentDisposition")
struct ContentDispositionTests {
    static func parse(_ value: String) throws(MultipartError) -> ContentDisposition {
        try ContentDisposition.parse(value)
    }

    static func rejects(_ value: String, _ flag: StrictFlag, at offset: Int64, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: MultipartError(.flag(flag), offset: offset), "\(value.debugDescription)",
                sourceLocation: sourceLocation) { try parse(value) }
    }

    @Test(arguments: [
        ("form-data; name=\"a\"", "a", nil),
        ("form-data; name=\"a\"; filename=\"b.txt\"", "a", "b.txt"),
        ("form-data; filename=\"b.txt\"; name=\"a\"", "a", "b.txt"),
        ("form-data; name=field; filename=x.bin", "field", "x.bin"),
        ("form-data;name=\"a\";filename=\"b\"", "a", "b"),
        ("  form-data ;\tname=\"a\" ; filename=\"b\" ;", "a", "b"),
        ("Form-Data; NAME=\"a\"; FileName=\"b\"", "a", "b"),
        ("FORM-DATA; Name=A", "A", nil),
        ("form-data; name=\"a\"; filename=\"\"", "a", ""),
        ("form-data; name=\"a b; c=d\"; filename=\"x y;z.txt\"", "a b; c=d", "x y;z.txt"),
        ("form-data; name=\"a\"; size=3; foo=\"bar baz\"; creation-date=\"x\"", "a", nil),
        ("form-data; name=\"pr\u{E9}nom\"; filename=\"\u{2603}.pdf\"", "pr\u{E9}nom", "\u{2603}.pdf"),
    ] as [(String, String, String?)])
    func parses(value: String, name: String, filename: String?) throws {
        let disposition = try Self.parse(value)
        #expect(disposition.name == Array(name.utf8))
        #expect(disposition.filename == filename.map { Array($0.utf8) })
        #expect(!disposition.filenameWasExtended)
    }

    @Test func loneExtendedFilenameIsDecoded() throws {
        let utf8 = try Self.parse("form-data; name=\"a\"; filename*=UTF-8''%e2%82%ac%20rates.txt")
        #expect(utf8.filename == Array("\u{20AC} rates.txt".utf8))
        #expect(utf8.filenameWasExtended)
        let lowercase = try Self.parse("form-data; filename*=utf-8'en'caf%C3%A9; name=\"a\"")
        #expect(lowercase.filename == Array("caf\u{E9}".utf8))
        let latin1 = try Self.parse("form-data; name=\"a\"; filename*=ISO-8859-1'en'%A3%20r%E9sum%E9%FF")
        #expect(latin1.filename == Array("\u{A3} r\u{E9}sum\u{E9}\u{FF}".utf8))
        #expect(latin1.filenameWasExtended)
        let attrChars = try Self.parse("form-data; name=\"a\"; FILENAME*=UTF-8''!#$&+-.^_`|~09azAZ")
        #expect(attrChars.filename == Array("!#$&+-.^_`|~09azAZ".utf8))
        let empty = try Self.parse("form-data; name=\"a\"; filename*=UTF-8''")
        #expect(empty.filename == [])
        // Names stay raw bytes: invalid UTF-8 is for the part reader to judge.
        let raw = try Self.parse("form-data; name=\"a\"; filename*=UTF-8''%FF%41")
        #expect(raw.filename == [0xFF, 0x41])
    }

    @Test func extendedFilenameErrors() {
        let prefix = "form-data; name=\"a\"; filename*="
        let value = Int64(prefix.utf8.count)
        Self.rejects(prefix + "UTF-7''x", .filenameExtended, at: value)
        Self.rejects(prefix + "us-ascii''x", .filenameExtended, at: value)
        Self.rejects(prefix + "''x", .filenameExtended, at: value)
        Self.rejects(prefix + "UTF-8x", .invalidParameter, at: value)
        Self.rejects(prefix + "UTF-8'x", .invalidParameter, at: value)
        Self.rejects(prefix + "UTF-8''%2", .invalidParameter, at: value + 7)
        Self.rejects(prefix + "UTF-8''a%", .invalidParameter, at: value + 8)
        Self.rejects(prefix + "UTF-8''%zz", .invalidParameter, at: value + 7)
        Self.rejects(prefix + "UTF-8''%2G.txt", .invalidParameter, at: value + 7)
        Self.rejects(prefix + "UTF-8''a'b", .invalidParameter, at: value + 8)
        Self.rejects(prefix + "UTF-8''a*b", .invalidParameter, at: value + 8)
        Self.rejects(prefix + "\"UTF-8''x\"", .invalidQuoting, at: value - 10)
    }

    @Test func filenameConflict() {
        let both = "form-data; name=\"a\"; filename=\"x\"; filename*=UTF-8''y"
        Self.rejects(both, .filenameConflict, at: both.utf8Offset(of: "filename*"))
        let reversed = "form-data; name=\"a\"; filename*=UTF-8''y; filename=\"x\""
        Self.rejects(reversed, .filenameConflict, at: reversed.utf8Offset(of: "filename*"))
    }

    @Test(arguments: [
        ("form-data; name=\"a\"; name=\"b\"", "name", 2),
        ("form-data; name=\"a\"; NAME=\"a\"", "NAME", 1),
        ("form-data; name=\"a\"; filename=\"x\"; Filename=\"x\"", "Filename", 1),
        ("form-data; name=\"a\"; filename*=UTF-8''x; filename*=UTF-8''x", "filename*", 2),
        ("form-data; name=\"a\"; foo=1; FOO=2", "FOO", 1),
    ])
    func duplicateParameters(value: String, second: String, occurrence: Int) {
        Self.rejects(value, .duplicateParameter, at: value.utf8Offset(of: second, occurrence: occurrence))
    }

    @Test func continuationsAndExtendedNames() {
        let name = "form-data; name*=UTF-8''a"
        Self.rejects(name, .parameterContinuation, at: 11)
        let zero = "form-data; name=\"a\"; filename*0=\"x\""
        Self.rejects(zero, .parameterContinuation, at: zero.utf8Offset(of: "filename*0"))
        let zeroExtended = "form-data; name=\"a\"; filename*0*=UTF-8''x"
        Self.rejects(zeroExtended, .parameterContinuation, at: zeroExtended.utf8Offset(of: "filename*0*"))
        let other = "form-data; name=\"a\"; foo*=UTF-8''x"
        Self.rejects(other, .parameterContinuation, at: other.utf8Offset(of: "foo*"))
    }

    @Test func quotingErrors() {
        Self.rejects("form-data; name=\"a\"b\"", .invalidQuoting, at: 19)
        Self.rejects("form-data; name=\"a\\\"b\"", .invalidQuoting, at: 18)
        Self.rejects("form-data; name=\"a\\b\"", .invalidQuoting, at: 18)
        Self.rejects("form-data; name=\"a\"; filename=\"C:\\x.txt\"", .invalidQuoting, at: 33)
        Self.rejects("form-data; name=\"a", .invalidQuoting, at: 18)
        // A missing `;` after a quoted value is bytes after the closing quote.
        Self.rejects("form-data; name=\"a\" filename=\"b\"", .invalidQuoting, at: 19)
    }

    @Test func parameterSyntaxErrors() {
        Self.rejects("form-data; name =\"a\"", .invalidParameter, at: 15)
        Self.rejects("form-data; name= \"a\"", .invalidParameter, at: 16)
        Self.rejects("form-data name=\"a\"", .invalidParameter, at: 10)
        Self.rejects("form-data; name=a filename=b", .invalidParameter, at: 17)
        Self.rejects("form-data; name=", .invalidParameter, at: 16)
        Self.rejects("form-data; name=; filename=\"b\"", .invalidParameter, at: 16)
        Self.rejects("form-data; =\"a\"", .invalidParameter, at: 11)
        Self.rejects("form-data; name=pr\u{E9}nom", .invalidParameter, at: 18)
    }

    @Test func notFormData() {
        Self.rejects("attachment; name=\"a\"", .dispositionNotFormData, at: 0)
        Self.rejects("inline", .dispositionNotFormData, at: 0)
        Self.rejects("  form-datax; name=\"a\"", .dispositionNotFormData, at: 2)
        Self.rejects("; name=\"a\"", .dispositionNotFormData, at: 0)
        Self.rejects("", .dispositionNotFormData, at: 0)
    }

    @Test func missingOrEmptyName() {
        Self.rejects("form-data", .missingName, at: 9)
        Self.rejects("form-data;", .missingName, at: 10)
        Self.rejects("form-data; filename=\"a\"", .missingName, at: 23)
        Self.rejects("form-data; name=\"\"", .missingName, at: 18)
        Self.rejects("form-data; name=\"\"; filename=\"a\"", .missingName, at: 32)
    }

    @Test func controlCharactersInAQuotedValueAreRejected() {
        // The part reader refuses these earlier as header_ctl; the direct API must not accept them either.
        #expect(throws: MultipartError.self) { try Self.parse("form-data; name=\"a\u{1}b\"") }
        #expect(throws: MultipartError.self) { try Self.parse("form-data; name=\"a\"; filename=\"b\u{0}\"") }
    }

    /// Huge values complete: a quadratic duplicate check over 1 MiB of parameters would not finish in time.
    @Test(.timeLimit(.minutes(1))) func hugeValuesParseInLinearTime() throws {
        var many = "form-data; name=\"a\""
        var index = 0
        while many.utf8.count < 1 << 20 {
            many += "; p\(index)=v"
            index += 1
        }
        #expect(try Self.parse(many + "; filename=\"f\"").filename == Array("f".utf8))
        Self.rejects(many + "; p0=v", .duplicateParameter, at: Int64(many.utf8.count + 2))
        let spaces = String(repeating: " ", count: 1 << 20)
        #expect(try Self.parse("form-data;" + spaces + "name=a" + spaces).name == Array("a".utf8))
    }
}
