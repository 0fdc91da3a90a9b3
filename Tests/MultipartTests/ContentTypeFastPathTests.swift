import Testing

@testable import Multipart

/// The request Content-Type's usual form and a part Content-Type without parameters are read on short paths;
/// every value must get exactly what the full strict scan gives it (the same boundary, or the same flag).
@Suite struct ContentTypeFastPathTests {
    static let requestValues = [
        "multipart/form-data; boundary=abc",
        "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
        "multipart/form-data; boundary=" + String(repeating: "x", count: 70),
        "multipart/form-data; boundary=" + String(repeating: "x", count: 71),
        "multipart/form-data; boundary=",
        "multipart/form-data; boundary=abc ",
        "multipart/form-data; boundary=abc;",
        "multipart/form-data; boundary=abc; boundary=def",
        "multipart/form-data; boundary=abc; charset=utf-8",
        "multipart/form-data; boundary=ab=c",
        "multipart/form-data; boundary=a/b",
        "multipart/form-data; boundary=a b",
        "multipart/form-data; boundary=a*b",
        "multipart/form-data; boundary=\"abc\"",
        "multipart/form-data; boundary=abc\u{7f}",
        "multipart/form-data; boundary=ab\u{e9}",
        "multipart/form-data;boundary=abc",
        "Multipart/Form-Data; boundary=abc",
        "multipart/form-data; Boundary=abc",
        "multipart/form-data; boundary*=abc",
        "multipart/mixed; boundary=abc",
        "multipart/form-data",
    ]

    @Test(arguments: requestValues)
    func requestContentTypeMatchesTheFullScan(_ value: String) {
        let bytes = Array(value.utf8)
        let full = bytes.withUnsafeBytes { raw in
            Result { () throws(ParameterScanner.Failure) in try MultipartContentType.scan(raw) }
        }
        let usual = bytes.withUnsafeBytes { MultipartContentType.usualForm($0) }
        if let usual {
            #expect(usual == (try? full.get()), "the short path took \(value) and read it otherwise")
        }
        let parsed = Result { () throws(MultipartError) in try MultipartContentType.parse(value) }
        switch (parsed, full) {
        case (.success(let a), .success(let b)):
            #expect(a == b)
        case (.failure(let a), .failure(let b)):
            #expect(a.reason == .flag(b.flag) && a.offset == Int64(b.offset))
        default:
            Issue.record("\(value): parse \(parsed), full scan \(full)")
        }
    }

    @Test func theUsualFormTakesTheShortPath() {
        let bytes = Array("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW".utf8)
        #expect(bytes.withUnsafeBytes { MultipartContentType.usualForm($0) }?.boundary.bytes
            == Array("----WebKitFormBoundary7MA4YWxkTrZu0gW".utf8))
    }

    @Test(arguments: [
        ("image/png", "image/png"), ("IMAGE/PNG", "image/png"), ("  Text/Plain  ", "text/plain"),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",
         "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("text/plain; charset=UTF-8", "text/plain; charset=UTF-8"), ("text/plain;", "text/plain"),
        ("Multipart/Mixed; Boundary=x", "multipart/mixed; boundary=x"),
    ])
    func partContentTypeIsCanonical(_ given: String, _ canonical: String) throws {
        let bytes = Array(given.utf8)
        let result = try bytes.withUnsafeBytes { raw throws(ParameterScanner.Failure) in
            try PartContentType.canonical(raw)
        }
        #expect(result.value == canonical)
        #expect(result.isMultipart == canonical.hasPrefix("multipart/"))
    }

    @Test(arguments: ["image/", "/png", "image/png x", "image png", "", "  "])
    func malformedPartContentTypeIsRefused(_ given: String) {
        let bytes = Array(given.utf8)
        #expect(throws: ParameterScanner.Failure.self) {
            try bytes.withUnsafeBytes { raw throws(ParameterScanner.Failure) in try PartContentType.canonical(raw) }
        }
    }
}
