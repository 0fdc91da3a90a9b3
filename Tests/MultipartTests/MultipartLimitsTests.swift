import Multipart
import Testing

@Suite("Multipart limits")
struct MultipartLimitsTests {
    static func part(_ name: String, filename: String? = nil, data: String) -> String {
        let file = filename.map { "; filename=\"\($0)\"" } ?? ""
        return "--b\r\nContent-Disposition: form-data; name=\"\(name)\"\(file)\r\n\r\n\(data)\r\n"
    }

    @Test func partCount() {
        let body = [UInt8](Self.part("a", data: "1") + Self.part("b", data: "2") + Self.part("c", data: "3") + "--b--")
        #expect(SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(parts: 3)).error == nil)
        let error = SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(parts: 2)).error
        #expect(error?.reason == .limit(.parts))
        #expect(error?.part == 2)
        #expect(error?.isLimit == true)
        #expect(error?.name == "limit_parts")
    }

    @Test func partHeaderBytes() {
        let head = "Content-Disposition: form-data; name=\"a\"\r\n\r\n"
        let body = [UInt8]("--b\r\n" + head + "v\r\n--b--")
        #expect(SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(partHeaderBytes: head.utf8.count)).error == nil)
        let error = SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(partHeaderBytes: head.utf8.count - 1)).error
        #expect(error?.reason == .limit(.partHeaderBytes))
        // A header line that never ends is cut off at the limit, not buffered.
        var endless = [UInt8]("--b\r\nX-Long: ")
        endless += [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)
        let cut = SplitFeeder.parse(endless, boundary: "b", pieces: [7, 50, 1000], limits: MultipartLimits(partHeaderBytes: 512))
        #expect(cut.error?.reason == .limit(.partHeaderBytes))
    }

    @Test func headerLines() {
        let headers = (0..<5).map { "X-\($0): v\r\n" }.joined()
        let body = [UInt8]("--b\r\n" + headers + "Content-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b--")
        #expect(SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(headerLines: 6)).error == nil)
        #expect(SplitFeeder.verify(body, boundary: "b", limits: MultipartLimits(headerLines: 5)).error?.reason
            == .limit(.headerLines))
    }

    @Test func preambleAndEpilogueBytes() {
        let preamble = [UInt8](String(repeating: "p", count: 10) + "\r\n--b--\r\n")
        #expect(SplitFeeder.verify(preamble, boundary: "b", limits: MultipartLimits(preambleBytes: 11)).error == nil)
        #expect(SplitFeeder.verify(preamble, boundary: "b", limits: MultipartLimits(preambleBytes: 10)).error?.reason
            == .limit(.preambleBytes))
        let epilogue = [UInt8]("--b--\r\n" + String(repeating: "e", count: 10))
        #expect(SplitFeeder.verify(epilogue, boundary: "b", limits: MultipartLimits(epilogueBytes: 10)).error == nil)
        #expect(SplitFeeder.verify(epilogue, boundary: "b", limits: MultipartLimits(epilogueBytes: 9)).error?.reason
            == .limit(.epilogueBytes))
    }

    @Test func fieldBytesApplyToFieldsOnly() {
        let field = [UInt8](Self.part("a", data: "12345") + "--b--")
        #expect(SplitFeeder.verify(field, boundary: "b", limits: MultipartLimits(fieldBytes: 5)).error == nil)
        let error = SplitFeeder.verify(field, boundary: "b", limits: MultipartLimits(fieldBytes: 4)).error
        #expect(error?.reason == .limit(.fieldBytes))
        #expect(error?.offset == 53)
        let file = [UInt8](Self.part("a", filename: "f", data: "12345") + "--b--")
        #expect(SplitFeeder.verify(file, boundary: "b", limits: MultipartLimits(fieldBytes: 1)).error == nil)
    }
}
