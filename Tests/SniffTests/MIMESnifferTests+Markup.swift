import Sniff
import Testing

/// HTML tag variants, SVG / XHTML / XML / HTML precedence, PHP and byte order marks.
extension MIMESnifferTests {
    @Test(arguments: [
        "<!DOCTYPE HTML>", "<!doctype html ", "<html>", "<HTML ", "<head>", "<SCRIPT>", "<iframe src=x>", "<h1>",
        "<div>", "<font ", "<table>", "<a href=x>", "<style>", "<title>", "<b>", "<body>", "<br>", "<p>",
        "<!-- comment --> <div>", " \t\r\n\u{0C}<html>", "<!-- not closed in this window",
    ])
    func htmlTags(_ text: String) {
        let result = sniff(Fixture.ascii(text + " trailing text"))
        #expect(result.type == .html)
        #expect(result.category == .markup)
        #expect(result.isScriptable)
    }

    @Test(arguments: ["<htmlx>", "<bold>", "<h2>", "<p2>", "<!---->x", "<scripts>", "x<html>", "\u{0B}<html>"])
    func notHTML(_ text: String) {
        let result = sniff(Fixture.ascii(text))
        #expect(result.type != .html)
    }

    @Test func wHATWGTagMustBeFollowedByASpaceOrGreaterThan() {
        // "<!--" followed by a letter is not a WHATWG HTML pattern; the comment closes, and the root decides.
        #expect(sniff(Fixture.ascii("<!--x--><note/>")).type == .plainText)
        #expect(
            sniff(Fixture.ascii("<!--x--><script>")) == SniffResult(type: .html, signature: "html-root", isFinal: true)
        )
        #expect(sniff(Fixture.ascii("<p\n>")).signature == "html-root")
        #expect(sniff(Fixture.ascii("<!-- ")).signature == "html-tag")
    }

    @Test func utf8BOMDoesNotHideMarkup() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(sniff(bom + Fixture.ascii("<script>alert(1)</script>")).type == .html)
        #expect(sniff(bom + Fixture.ascii("\n<svg xmlns='http://www.w3.org/2000/svg'/>")).type == .svg)
        #expect(sniff(bom + Fixture.ascii("<?php echo 1;")).type == .php)
        #expect(sniff(bom + Fixture.ascii("plain")).signature == "bom-utf8")
        // UTF-16 text is text even when it spells markup.
        #expect(sniff([0xFF, 0xFE] + Fixture.utf16le("<html>")).signature == "bom-utf16le")
    }

    @Test func svgOutranksXMLAndHTML() {
        let cases: [(String, SniffedType, String)] = [
            ("<svg width=\"1\"/>", .svg, "svg-root"),
            (
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">", .svg,
                "svg-root"
            ),
            (
                "<?xml version=\"1.0\"?><!-- made by hand --><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
                    + "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\"><svg>", .svg, "svg-root"
            ),
            ("<!-- comment followed by a space: WHATWG would say HTML --> <svg>", .svg, "svg-root"),
            ("<!DOCTYPE svg [ <!ENTITY x \"<>\"> ]>\n<svg>", .svg, "svg-root"),
            ("<?xml-stylesheet href=\"a.css\"?><svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\">", .svg, "svg-root"),
            ("<?xml version=\"1.0\"?><rss version=\"2.0\">", .xml, "xml-declaration"),
            ("<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">", .xhtml, "xhtml-root"),
            (
                "<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x.dtd\"><html>",
                .xhtml, "xhtml-root"
            ),
            ("<!DOCTYPE html><svg>", .html, "html-doctype"),
            ("<html><svg></svg></html>", .html, "html-root"),
            ("<svgfoo>", .plainText, "text"),
        ]
        for (text, type, signature) in cases {
            let result = sniff(Fixture.ascii(text))
            #expect(result.type == type, "\(text)")
            #expect(result.signature == signature, "\(text)")
        }
    }

    @Test func prologThatRunsPastTheWindowFallsBackToWHATWG() {
        let longComment = "<?xml version=\"1.0\"?><!--" + String(repeating: "x", count: 2000) + "--><svg>"
        #expect(sniff(Fixture.ascii(longComment)).type == .xml)
        let pending = sniff(Array(Fixture.ascii(longComment).prefix(100)), complete: false)
        #expect(pending.type == .xml)
        #expect(!pending.isFinal, "the comment might still end in an <svg> root")
    }

    @Test func phpOpenTags() {
        #expect(sniff(Fixture.ascii("<?PHP phpinfo();")).type == .php)
        #expect(sniff(Fixture.ascii("  <?= 1 ?>")).type == .php)
        #expect(sniff(Fixture.ascii("<? echo 1; ?>")).type == .plainText, "short open tags are not recognised")
        #expect(SniffedType.php.category == .script)
    }
}
