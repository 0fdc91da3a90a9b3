import Foundation
import Multipart
import Testing

@Suite("MultipartFormData names and types")
struct FormDataNameTests {
    typealias Expect = FormDataFileErrorTests

    static let unsafe = ["a\"b", "a\\b", "a\rb", "a\nb", "a%22b", "a%0Db", "a%0ab", "\"", "tab\u{0}nul", "del\u{7F}"]

    @Test(arguments: unsafe)
    func unsafeNamesAreRefused(_ name: String) {
        let form = MultipartFormData()
        let error = Expect.expectError(.unsafeName) { () throws(FormDataError) in try form.append([1], withName: name) }
        #expect(error?.encodingError?.code == .unsafeName)
        #expect(error?.encodingError?.value == name)
        #expect(error?.partName == name)
        Expect.expectError(.unsafeName) { () throws(FormDataError) in
            try form.append(FormDataProbeStream(available: 1), withLength: 1, name: name)
        }
        #expect(form.parts.isEmpty)
    }

    @Test(arguments: unsafe)
    func unsafeFilenamesAreRefused(_ filename: String) {
        let form = MultipartFormData()
        let error = Expect.expectError(.unsafeFilename) { () throws(FormDataError) in
            try form.append([1], withName: "file", fileName: filename, mimeType: "text/plain")
        }
        #expect(error?.encodingError == MultipartEncodingError(.unsafeFilename, value: filename))
        #expect(form.contentLength == (try? form.encode()).map { UInt64($0.count) })
    }

    @Test func unsafeFilenamesFromFileURLsAreRefused() throws {
        let scratch = FormDataScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.write([1], to: "quote\"d.txt")
        let error = Expect.expectError(.unsafeFilename) { () throws(FormDataError) in
            try MultipartFormData().append(file, withName: "doc")
        }
        #expect(error?.encodingError?.value == "quote\"d.txt")
        let escaped = scratch.write([1], to: "pct%22.txt")
        Expect.expectError(.unsafeFilename) { () throws(FormDataError) in
            try MultipartFormData().append(escaped, withName: "doc")
        }
    }

    @Test func emptyNameIsRefused() {
        let error = Expect.expectError(.emptyName) { () throws(FormDataError) in
            try MultipartFormData().append([1], withName: "")
        }
        #expect(error?.encodingError?.code == .emptyName)
    }

    @Test(arguments: [
        "", "text", "text/", "/plain", "text/plain; a=1; a=2", "text/plain; name*=x",
        "text/pl\u{1}ain", "text/plain; q=\"a\rb\"", "Multipart/Mixed; boundary=x",
    ])
    func invalidMimeTypesAreRefused(_ mimeType: String) {
        let form = MultipartFormData()
        let error = Expect.expectError(.invalidMimeType) { () throws(FormDataError) in
            try form.append([1], withName: "part", mimeType: mimeType)
        }
        #expect(error?.partName == "part")
        #expect(form.parts.isEmpty)
    }

    @Test(arguments: [
        ("Text/Plain; Charset=UTF-8", "text/plain; charset=UTF-8"), ("IMAGE/PNG", "image/png"),
        ("application/json;  q=\"a b\"", "application/json; q=\"a b\""), ("text/plain;", "text/plain"),
    ])
    func mimeTypesAreWrittenInCanonicalForm(_ given: String, _ canonical: String) throws {
        let form = MultipartFormData()
        try form.append([1], withName: "part", mimeType: given)
        #expect(form.parts[0].mimeType == canonical)
        let parsed = FormDataParsedBody.parse(try form.encode(), boundary: form.boundary)
        #expect(parsed.isClean && parsed.parts.first?.head.contentType == canonical)
    }

    @Test func safeLookalikesAreKept() throws {
        let names = ["100%", "a%2", "%2", "a%20b", "it's", "semi;colon", "slash/and\u{00E9}", "日本語"]
        let form = MultipartFormData()
        for name in names { try form.append([UInt8](name.utf8), withName: name, fileName: name + ".txt") }
        let body = try form.encode()
        #expect(form.contentLength == UInt64(body.count))
        let outcome = SplitFeeder.verify(body, boundary: form.boundary.description)
        #expect(outcome.error == nil && outcome.violations.isEmpty)
        #expect(outcome.parts.map(\.head.name) == names)
        #expect(outcome.parts.map(\.head.filename) == names.map { $0 + ".txt" })
        #expect(outcome.parts.map(\.data) == names.map { [UInt8]($0.utf8) })
    }
}
