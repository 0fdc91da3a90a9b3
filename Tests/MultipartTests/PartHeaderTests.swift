import Multipart
import Testing

/// Strict flags raised by part header sections.
@Suite("Part headers")
struct PartHeaderTests {
    static func body(_ headers: String, data: String = "v") -> [UInt8] {
        [UInt8]("--b\r\n" + headers + "\r\n\r\n" + data + "\r\n--b--\r\n")
    }

    static func flag(_ headers: String, strictness: Strictness = Strictness()) -> StrictFlag? {
        let outcome = SplitFeeder.verify(body(headers), boundary: "b", strictness: strictness)
        if case .flag(let flag) = outcome.error?.reason { return flag }
        return nil
    }

    @Test(arguments: [
        ("Content-Disposition: form-data; name=\"a\"\r\n folded", StrictFlag.headerFolding),
        (" Content-Disposition: form-data; name=\"a\"", .headerFolding),
        ("Content-Disposition: form-data; name=\"a\u{0}\"", .headerCTL),
        ("conten\u{0}-extra: x\r\nContent-Disposition: form-data; name=\"a\"", .headerCTL),
        ("Content-Disposition: form-data; name=\"a\rb\"", .headerCTL),
        ("Content-Disposition : form-data; name=\"a\"", .invalidHeader),
        ("Content-Disposition form-data; name=\"a\"", .invalidHeader),
        (": form-data; name=\"a\"", .invalidHeader),
        ("Content-Type: text/plain", .missingContentDisposition),
        ("Content-Disposition: attachment; name=\"a\"", .dispositionNotFormData),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"", .duplicateContentDisposition),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain\r\ncontent-type: text/html", .duplicateContentType),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: text", .partContentTypeSyntax),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain; charset=utf-8; charset=utf-7", .duplicateParameter),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain; charset*=utf-7", .parameterContinuation),
        ("Content-Disposition: form-data; filename=\"a\"", .missingName),
        ("Content-Disposition: form-data; name=\"\"", .missingName),
        ("Content-Disposition: form-data; name=\"a\"; name=\"b\"", .duplicateParameter),
        ("Content-Disposition: form-data; name=\"a\"; Name=\"b\"", .duplicateParameter),
        ("Content-Disposition: form-data; name=\"a\"; filename=\"x\"; filename*=UTF-8''y", .filenameConflict),
        ("Content-Disposition: form-data; name*=UTF-8''a", .parameterContinuation),
        ("Content-Disposition: form-data; name=\"a\"; filename*0=\"x\"", .parameterContinuation),
        ("Content-Disposition: form-data; name=\"a\\\"b\"", .invalidQuoting),
        ("Content-Disposition: form-data; name=\"a\"; filename=\"x\"y.txt\"", .invalidQuoting),
        ("Content-Disposition: form-data; name=\"a", .invalidQuoting),
        ("Content-Disposition: form-data; name = \"a\"", .invalidParameter),
        ("Content-Disposition: form-data name=\"a\"", .invalidParameter),
        ("Content-Disposition: form-data; name=\"a%22b\"", .unsafeName),
        ("Content-Disposition: form-data; name=\"a%0db\"", .unsafeName),
        ("Content-Disposition: form-data; name=\"a\"; filename=\"x%0A.txt\"", .unsafeFilename),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: base64", .contentTransferEncoding),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: gzip", .contentTransferEncoding),
        ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: multipart/mixed; boundary=c", .nestedMultipart),
    ])
    func rejectsByDefault(headers: String, expected: StrictFlag) {
        #expect(Self.flag(headers) == expected)
    }

    @Test func invalidUTF8IsRejectedOrReplaced() throws {
        var bytes = [UInt8]("--b\r\nContent-Disposition: form-data; name=\"a\"; filename=\"")
        bytes += [0xFF, 0x41]
        bytes += [UInt8]("\"\r\n\r\nv\r\n--b--")
        #expect(SplitFeeder.verify(bytes, boundary: "b").error?.reason == .flag(.invalidUTF8))
        let normalized = SplitFeeder.verify(bytes, boundary: "b", strictness: try Strictness([.invalidUTF8: .normalize]))
        #expect(normalized.parts.first?.head.filename == "\u{FFFD}A")
        #expect(normalized.violations == [.invalidUTF8])
    }

    /// Found by FuzzContentDisposition: a malformed `filename*` is a syntax error of the whole value and
    /// is named first, as `ContentDisposition.parse` names it, even when the name is not UTF-8.
    @Test func malformedExtendedFilenameIsNamedBeforeTheNamesEncoding() {
        var bytes = [UInt8]("--b\r\nContent-Disposition: form-data; name=\"")
        bytes += [0xFF]
        bytes += [UInt8]("\"; filename*=utf-8%zz\r\n\r\nv\r\n--b--")
        #expect(SplitFeeder.verify(bytes, boundary: "b").error?.reason == .flag(.invalidParameter))
    }

    @Test func utf8NamesAndFilenamesPassThrough() {
        let outcome = SplitFeeder.verify(Self.body("Content-Disposition: form-data; name=\"prénom\"; filename=\"☃ résumé.pdf\""),
                                         boundary: "b")
        #expect(outcome.parts.first?.head.name == "prénom")
        #expect(outcome.parts.first?.head.filename == "☃ résumé.pdf")
    }

    @Test func foldingCanBeNormalized() throws {
        let strictness = try Strictness([.headerFolding: .normalize])
        let outcome = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data;\r\n\tname=\"a\""), boundary: "b", strictness: strictness)
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.head.name == "a")
        #expect(outcome.violations == [.headerFolding])
        #expect(Self.flag(" x: y\r\nContent-Disposition: form-data; name=\"a\"", strictness: strictness) == .headerFolding)
    }

    @Test func loneExtendedFilenameIsDecoded() throws {
        let outcome = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''%e2%82%ac%20rates.txt"),
            boundary: "b")
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.head.filename == "€ rates.txt")
        #expect(outcome.violations == [.filenameExtended])
        let latin1 = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data; name=\"a\"; filename*=iso-8859-1'en'%A3%20rates"), boundary: "b")
        #expect(latin1.parts.first?.head.filename == "£ rates")
        let reject = try Strictness([.filenameExtended: .reject])
        #expect(Self.flag("Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''x", strictness: reject)
            == .filenameExtended)
        #expect(Self.flag("Content-Disposition: form-data; name=\"a\"; filename*=UTF-7''x") == .filenameExtended)
        #expect(Self.flag("Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''%2") == .invalidParameter)
    }

    @Test func controlCharactersDecodedFromExtendedFilenamesAreRejected() throws {
        // Sent raw, these are header_ctl; percent-encoded in filename* they must not get through either
        // (the encoder refuses to write them, so an accepted part could not be forwarded).
        let lenient = try Strictness([.unsafeFilename: .normalize, .invalidUTF8: .normalize])
        for escape in ["%00", "%01", "%1B", "%1f", "%7F"] {
            let headers = "Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''a\(escape)b.txt"
            #expect(Self.flag(headers) == .headerCTL, "\(escape)")
            #expect(Self.flag(headers, strictness: lenient) == .headerCTL, "\(escape)")
        }
        let latin1 = "Content-Disposition: form-data; name=\"a\"; filename*=ISO-8859-1''a%00b"
        #expect(Self.flag(latin1) == .headerCTL)
        // A tab is allowed raw in a quoted filename, so it is allowed decoded too.
        let tab = SplitFeeder.verify(Self.body("Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''a%09b"),
                                     boundary: "b")
        #expect(tab.error == nil)
        #expect(tab.parts.first?.head.filename == "a\tb")
    }

    /// A part Content-Type of 1 MiB of parameters (under a raised header limit) completes: a quadratic
    /// duplicate check would not finish within the time limit.
    @Test(.timeLimit(.minutes(1))) func manyContentTypeParametersParseInLinearTime() {
        var type = "text/plain"
        var index = 0
        while type.utf8.count < 1 << 20 {
            type += "; p\(index)=v"
            index += 1
        }
        let limits = MultipartLimits(partHeaderBytes: 2 << 20)
        let head = "Content-Disposition: form-data; name=\"a\"\r\nContent-Type: "
        let outcome = SplitFeeder.parse(Self.body(head + type), boundary: "b", limits: limits)
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.head.contentType == type)
        let duplicate = SplitFeeder.parse(Self.body(head + type + "; P0=w"), boundary: "b", limits: limits)
        #expect(duplicate.error?.reason == .flag(.duplicateParameter))
    }

    @Test func unsafeFilenameCanBeNormalized() throws {
        let strictness = try Strictness([.unsafeFilename: .normalize])
        let outcome = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''a%22b%5Cc%25220d.txt"),
            boundary: "b", strictness: strictness)
        #expect(outcome.parts.first?.head.filename == "a_b_c_220d.txt")
        #expect(outcome.violations == [.filenameExtended, .unsafeFilename])
    }

    @Test func identityTransferEncodingCanBeDropped() throws {
        let strictness = try Strictness([.contentTransferEncoding: .normalize])
        let outcome = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: BINARY"),
            boundary: "b", strictness: strictness)
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.head.headers == [])
        #expect(outcome.violations == [.contentTransferEncoding])
        #expect(Self.flag("Content-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable",
                          strictness: strictness) == .contentTransferEncoding)
    }

    @Test func nestedMultipartCanBeAllowedAsOpaqueData() throws {
        let outcome = SplitFeeder.verify(
            Self.body("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: multipart/mixed; boundary=c",
                      data: "--c\r\n\r\nx\r\n--c--"),
            boundary: "b", strictness: try Strictness([.nestedMultipart: .allow]))
        #expect(outcome.parts.first?.head.contentType == "multipart/mixed; boundary=c")
        #expect(outcome.parts.first?.data == [UInt8]("--c\r\n\r\nx\r\n--c--"))
    }

    @Test func headerNamesAreCaseInsensitiveAndWhitespaceIsOptional() {
        let outcome = SplitFeeder.verify(
            Self.body("CONTENT-DISPOSITION:form-data;name=field;FILENAME=\"x.bin\"\r\ncontent-TYPE:APPLICATION/Octet-Stream"),
            boundary: "b")
        #expect(outcome.error == nil)
        #expect(outcome.parts.first?.head.name == "field")
        #expect(outcome.parts.first?.head.filename == "x.bin")
        #expect(outcome.parts.first?.head.contentType == "application/octet-stream")
    }

    @Test func strictnessRefusesActionsAFlagDoesNotPermit() {
        #expect(throws: StrictnessError(flag: .delimiterGarbage, action: .allow)) {
            try Strictness([.delimiterGarbage: .allow])
        }
        #expect(throws: StrictnessError.self) { try Strictness([.lfLine: .allow]) }
        #expect(throws: StrictnessError.self) { try Strictness([.nestedMultipart: .normalize]) }
        for flag in StrictFlag.allCases {
            #expect(flag.permittedActions.contains(.reject))
            #expect(flag.permittedActions.contains(flag.defaultAction))
        }
    }
}
