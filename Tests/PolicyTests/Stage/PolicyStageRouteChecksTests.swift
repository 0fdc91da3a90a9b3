import Multipart
import Sniff
import Testing

@testable import Policy

/// The route's own checks: `unsafe_filenames` and `charsets` (part Content-Type and `_charset_` fields).
@Suite("PolicyStage route checks")
struct PolicyStageRouteChecksTests {
    static let traversal = [
        "../../etc/passwd", "/abs", "C:x.txt", "..", ".htaccess", "a..b.txt", "évier ünïcödé.txt",
    ]

    @Test func sanitizeRewritesUnsafeFilenamesThroughTheParser() throws {
        let body = FormBody(Self.traversal.map { FormPart("f", filename: $0, text: "x") })
        let run = try PolicyHarness.runEverySplit(Build.route(), body)
        #expect(
            run.parts.map(\.head.filename) == [
                "passwd", "abs", "x.txt", "unnamed", "htaccess", "a.b.txt", "évier ünïcödé.txt",
            ])
        #expect(run.records.map(\.filename) == Self.traversal)
    }

    @Test func rejectRefusesAnyFilenameTheSanitiserWouldChange() throws {
        let route = Build.route(unsafeFilenames: .reject)
        let fine = try PolicyHarness.runEverySplit(route, FormBody([FormPart("f", filename: "évier.txt", text: "x")]))
        #expect(fine.rejection == nil && fine.parts[0].head.filename == "évier.txt")
        for name in Self.traversal.dropLast() {
            let run = try PolicyHarness.run(route, FormBody([FormPart("f", filename: name, text: "x")]).bytes)
            #expect(run.rejection?.status == 400, "\(name)")
            #expect(run.rejection?.reason == .unsafeFilename && run.rejection?.rule == "unsafe_filename")
        }
    }

    @Test func allowForwardsAsIsUnlessTheEncoderCannotWriteIt() throws {
        let route = Build.route(unsafeFilenames: .allow)
        let run = try PolicyHarness.runEverySplit(
            route, FormBody([FormPart("f", filename: "../../etc/passwd", text: "x")]))
        #expect(run.parts[0].head.filename == "../../etc/passwd")
        var stage = PolicyStage<NoPartDigest>(route: route)
        guard case .reject(let rejection) = stage.partHead(PartHead(index: 0, name: "f", filename: "a\"b")) else {
            Issue.record("a quote was let through")
            return
        }
        #expect(rejection.status == 400 && rejection.detail == "part 0 has a filename with no safe spelling")
    }

    @Test(arguments: [
        "a\r\nX-Evil: 1", "evil\0.php.jpg", "%22quoted%22.txt", "..\\..\\win.ini", "C:\\x", "a\u{202E}gpj.exe",
    ])
    func sanitizeCleansNamesTheParserCannotDeliverButAHeadMay(filename: String) {
        var stage = PolicyStage<NoPartDigest>(route: Build.route())
        guard case .writeHead(let head) = stage.partHead(PartHead(index: 0, name: "f", filename: filename)) else {
            Issue.record("not written")
            return
        }
        #expect(SafeName.isEncodable(head.filename!))
        #expect(!head.filename!.contains("/") && !head.filename!.contains("..") && !head.filename!.hasPrefix("."))
    }

    @Test(arguments: ["utf-7", "ibm037", "UTF-16", "x-user-defined"])
    func aPartCharsetOutsideTheListIsRefused(charset: String) throws {
        let body = FormBody([FormPart("q", type: "text/plain; charset=\(charset)", text: "+ADw-script+AD4-")])
        let run = try PolicyHarness.runEverySplit(Build.route(), body)
        #expect(run.rejection?.status == 415 && run.rejection?.reason == .charset && run.rejection?.rule == "charset")
        #expect(run.rejection?.detail == "part 0 declares charset '\(charset.lowercased())', which is not allowed")
    }

    @Test func allowedCharsetsPassInAnyCaseAndQuoting() throws {
        let body = FormBody([
            FormPart("a", type: "text/plain; charset=UTF-8", text: "x"),
            FormPart("b", type: "text/plain; format=flowed; charset=\"us-ascii\"", text: "y"),
            FormPart("c", type: "application/json", text: "{}"),
        ])
        let run = try PolicyHarness.runEverySplit(Build.route(), body)
        #expect(run.rejection == nil && run.parts.count == 3)
        let none = try PolicyHarness.runEverySplit(
            Build.route(charsets: []), FormBody([FormPart("a", type: "text/plain; charset=utf-8", text: "x")]))
        #expect(none.rejection?.reason == .charset, "charsets: [] allows none")
    }

    @Test func theCharsetFieldIsCheckedAtItsEnd() throws {
        let good = FormBody([FormPart("_charset_", text: "UTF-8"), FormPart("q", text: "x")])
        let run = try PolicyHarness.runEverySplit(Build.route(), good)
        #expect(run.rejection == nil && run.parts.map(\.data) == [Array("UTF-8".utf8), Array("x".utf8)])
        for value in ["utf-7", "IBM037", "utf-8 ", ""] {
            let bad = FormBody([FormPart("_CHARSET_", text: value), FormPart("q", text: "x")])
            let refused = try PolicyHarness.runEverySplit(Build.route(), bad)
            #expect(refused.rejection?.reason == .charset && refused.rejection?.status == 415, "\(value)")
            #expect(refused.parts.isEmpty, "a held _charset_ field never goes out")
        }
        let long = FormBody([FormPart("_charset_", FileFixtures.filler(3000))])
        #expect(try PolicyHarness.runEverySplit(Build.route(), long).rejection?.reason == .charset)
    }

    @Test func charsetChecksComeBeforeTheRules() throws {
        let strip = Rule(name: "strip-all", strip: true)
        let body = FormBody([FormPart("a", type: "text/plain; charset=utf-7", text: "x")])
        #expect(try PolicyHarness.runEverySplit(Build.route([strip]), body).rejection?.reason == .charset)
    }
}
