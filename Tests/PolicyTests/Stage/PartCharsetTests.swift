import Testing

@testable import Policy

@Suite("PartCharset")
struct PartCharsetTests {
    @Test(
        arguments: [
            ("text/plain; charset=utf-8", "utf-8"),
            ("text/plain; charset=UTF-7", "utf-7"),
            ("text/plain; format=flowed; charset=\"IBM037\"", "ibm037"),
            ("text/plain; name=\"a; charset=utf-7\"; charset=us-ascii", "us-ascii"),
            ("text/plain; name=\"a\\\"b\"; charset=x", "x"),
            ("application/json", nil),
            ("text/plain; charsetx=utf-7", nil),
            ("text/plain; charset=", ""),
        ] as [(String, String?)])
    func readsTheCharsetParameter(contentType: String, charset: String?) {
        #expect(PartCharset.charset(in: contentType) == charset)
    }

    @Test func recognisesTheCharsetFieldInAnyCase() {
        #expect(PartCharset.isCharsetField("_charset_") && PartCharset.isCharsetField("_CharSet_"))
        #expect(!PartCharset.isCharsetField("charset") && !PartCharset.isCharsetField("_charset_x"))
    }
}
