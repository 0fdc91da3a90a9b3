import Multipart
import Testing

/// A hand-written body that the parser accepts (under `strictness`) but that is not in canonical form,
/// with the violations it must report and the parts it must yield.
struct NonCanonicalBody: Sendable, CustomTestStringConvertible {
    var name: String
    var body: [UInt8]
    var boundary = "xYz"
    var strictness = Strictness()
    var violations: Set<StrictFlag> = []
    var parts: [FormPart]

    var testDescription: String { name }

    static func part(_ name: String, filename: String? = nil, type: String? = nil, headers: [PartHeader] = [],
                     data: String = "") -> FormPart {
        FormPart(head: PartHead(index: 0, name: name, filename: filename, contentType: type, headers: headers),
                 data: Array(data.utf8))
    }

    static func normalizing(_ flags: StrictFlag...) -> Strictness {
        try! Strictness(Dictionary(uniqueKeysWithValues: flags.map { ($0, StrictAction.normalize) }))
    }

    static let field = "Content-Disposition: form-data; name=\"a\"\r\n\r\n"

    static let all: [NonCanonicalBody] = [
        NonCanonicalBody(
            name: "preamble", body: Array("This is the preamble.\r\n--xYz\r\n\(field)1\r\n--xYz--\r\n".utf8),
            violations: [.preamble], parts: [part("a", data: "1")]),
        NonCanonicalBody(
            name: "epilogue", body: Array("--xYz\r\n\(field)1\r\n--xYz--\r\nepilogue\r\n--xYz\r\n".utf8),
            violations: [.epilogue], parts: [part("a", data: "1")]),
        NonCanonicalBody(
            name: "empty form with preamble and epilogue", body: Array("preamble\r\n--xYz--\r\nepilogue".utf8),
            violations: [.preamble, .epilogue], parts: []),
        NonCanonicalBody(
            name: "transport padding",
            body: Array("--xYz \t\r\n\(field)1\r\n--xYz\t\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--xYz-- \r\n".utf8),
            strictness: normalizing(.transportPadding), violations: [.transportPadding],
            parts: [part("a", data: "1"), part("b", data: "2")]),
        NonCanonicalBody(
            name: "lowercase header names, odd spacing, non-canonical type",
            body: Array(("--xYz\r\ncontent-disposition:form-data;name=\"a\";filename=\"f.txt\"\r\n"
                + "content-type:   Text/Plain ;  Charset=\"utf-8\"; Q=\"a b\"  \r\n\r\nhello\r\n--xYz--\r\n").utf8),
            parts: [part("a", filename: "f.txt", type: "text/plain; charset=utf-8; q=\"a b\"", data: "hello")]),
        NonCanonicalBody(
            name: "token-valued name and filename, upper case",
            body: Array("--xYz\r\nCONTENT-DISPOSITION: FORM-DATA; NAME=field; FILENAME=x.bin\r\n\r\n\r\n--xYz--".utf8),
            parts: [part("field", filename: "x.bin")]),
        NonCanonicalBody(
            name: "type before disposition, unknown parameters, trailing semicolon",
            body: Array(("--xYz\r\nContent-Type: application/octet-stream\r\nContent-Disposition: form-data; "
                + "name=\"f\"; filename=\"\"; size=0;\r\n\r\n\r\n--xYz--\r\n").utf8),
            parts: [part("f", filename: "", type: "application/octet-stream")]),
        NonCanonicalBody(
            name: "lone filename* in UTF-8 and ISO-8859-1",
            body: Array(("--xYz\r\nContent-Disposition: form-data; name=\"doc\"; filename*=UTF-8''%e2%82%ac%20rates.txt\r\n\r\n"
                + "x\r\n--xYz\r\nContent-Disposition: form-data; name=\"old\"; filename*=iso-8859-1'en'%A3%20r%E9sum%E9\r\n\r\n"
                + "y\r\n--xYz--\r\n").utf8),
            violations: [.filenameExtended],
            parts: [part("doc", filename: "\u{20AC} rates.txt", data: "x"), part("old", filename: "\u{A3} r\u{E9}sum\u{E9}", data: "y")]),
        NonCanonicalBody(
            name: "identity Content-Transfer-Encoding",
            body: Array("--xYz\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\u{E9}\r\n--xYz--\r\n".utf8),
            strictness: normalizing(.contentTransferEncoding), violations: [.contentTransferEncoding],
            parts: [part("a", data: "\u{E9}")]),
        NonCanonicalBody(
            name: "folded headers",
            body: Array(("--xYz\r\nContent-Disposition: form-data;\r\n name=\"a\";\r\n\tfilename=\"b.txt\"\r\n"
                + "Content-Type: text/plain;\r\n charset=utf-8\r\n\r\nv\r\n--xYz--\r\n").utf8),
            strictness: normalizing(.headerFolding), violations: [.headerFolding],
            parts: [part("a", filename: "b.txt", type: "text/plain; charset=utf-8", data: "v")]),
        NonCanonicalBody(
            name: "LF-only line endings",
            body: Array("--xYz\nContent-Disposition: form-data; name=\"a\"\n\nline\r\nv\n--xYz\nContent-Disposition: form-data; name=\"b\"\n\n\n--xYz--\n".utf8),
            strictness: normalizing(.lfLine), violations: [.lfLine],
            parts: [part("a", data: "line\r\nv"), part("b")]),
        NonCanonicalBody(
            name: "kept headers in any case with padding",
            body: Array(("--xYz\r\nx-custom-header:   some value  \r\nContent-Disposition: form-data; name=\"a\"\r\n"
                + "X-OTHER:a\tb\r\nx-empty:\r\n\r\nv\r\n--xYz--\r\n").utf8),
            parts: [part("a", headers: [PartHeader(name: "x-custom-header", value: "some value"),
                                        PartHeader(name: "X-OTHER", value: "a\tb"), PartHeader(name: "x-empty", value: "")],
                         data: "v")]),
        NonCanonicalBody(
            name: "invalid UTF-8 in a filename",
            body: Array("--xYz\r\nContent-Disposition: form-data; name=\"a\"; filename=\"".utf8) + [0xFF, 0x41]
                + Array("\"\r\n\r\nv\r\n--xYz--\r\n".utf8),
            strictness: normalizing(.invalidUTF8), violations: [.invalidUTF8],
            parts: [part("a", filename: "\u{FFFD}A", data: "v")]),
        NonCanonicalBody(
            name: "unsafe filename characters",
            body: Array("--xYz\r\nContent-Disposition: form-data; name=\"a\"; filename*=UTF-8''a%22b%5Cc%25220d.txt\r\n\r\nv\r\n--xYz--\r\n".utf8),
            strictness: normalizing(.unsafeFilename), violations: [.filenameExtended, .unsafeFilename],
            parts: [part("a", filename: "a_b_c_220d.txt", data: "v")]),
        NonCanonicalBody(
            name: "missing close hyphens", body: Array("--xYz\r\n\(field)1\r\n--xYz\r\n".utf8),
            strictness: normalizing(.missingFinalBoundary), violations: [.missingFinalBoundary],
            parts: [part("a", data: "1")]),
        NonCanonicalBody(
            name: "missing close hyphens and line break", body: Array("--xYz\r\n\(field)1\r\n--xYz".utf8),
            strictness: normalizing(.missingFinalBoundary), violations: [.missingFinalBoundary],
            parts: [part("a", data: "1")]),
        NonCanonicalBody(
            name: "general-path names and look-alike data",
            body: Array(("--xYz\r\nContent-Disposition: form-data; name=\"pr\u{E9}nom \t;=%2\"; filename=\"100%.txt\"\r\n\r\n"
                + "--xYz\r\n\r\n--xY\r\n-\r\n\n--xYz\r\r\n--xYz--\r\n").utf8),
            parts: [part("pr\u{E9}nom \t;=%2", filename: "100%.txt", data: "--xYz\r\n\r\n--xY\r\n-\r\n\n--xYz\r")]),
        NonCanonicalBody(
            name: "everything normalizable at once",
            body: Array(("preamble\r\n--xYz  \r\ncontent-type: TEXT/csv\r\ncontent-disposition: form-data;\r\n"
                + " name=field; filename*=utf-8''r%C3%A9sum%C3%A9.csv\r\ncontent-transfer-encoding: binary\r\n\r\n"
                + "a,b\r\n\r\n--xYz--\r\nepilogue").utf8),
            strictness: normalizing(.transportPadding, .headerFolding, .contentTransferEncoding),
            violations: [.preamble, .transportPadding, .headerFolding, .filenameExtended, .contentTransferEncoding, .epilogue],
            parts: [part("field", filename: "r\u{E9}sum\u{E9}.csv", type: "text/csv", data: "a,b\r\n")]),
    ]
}
