import Sniff

extension SignatureCase {
    static let scripts: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init("sh", F.ascii("#!/bin/sh\necho hi\n"), .shellScript, "shebang"),
            .init("bash via env", F.ascii("#!/usr/bin/env bash\nset -e\n"), .shellScript, "shebang"),
            .init("unknown interpreter", F.ascii("#!/usr/bin/awk -f\n{ print }\n"), .shellScript, "shebang"),
            .init("python via env", F.ascii("#!/usr/bin/env python3\nprint(1)\n"), .python, "shebang"),
            .init("python path", F.ascii("#! /opt/venv/bin/python3.12 -u\n"), .python, "shebang"),
            .init("perl", F.ascii("#!/usr/bin/perl -w\nuse strict;\n"), .perl, "shebang"),
            .init("ruby", F.ascii("#!/usr/bin/ruby\nputs 1\n"), .ruby, "shebang"),
            .init("node via env -S", F.ascii("#!/usr/bin/env -S node --no-warnings\n"), .javaScript, "shebang"),
            .init("deno", F.ascii("#!/usr/bin/env -S NODE_ENV=x deno run\n"), .javaScript, "shebang"),
            .init("php shebang", F.ascii("#!/usr/bin/php\n<?php echo 1;\n"), .php, "shebang"),
            .init("php tag", F.ascii("<?php\nsystem($_GET['c']);\n"), .php, "php-tag"),
            .init("php short echo tag", F.ascii("<?= $x ?>"), .php, "php-tag"),
        ]
    }()

    static let documents: [SignatureCase] = {
        typealias F = Fixture
        return [
            .init("PDF", F.ascii("%PDF-1.7\n%") + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A], .pdf, "pdf"),
            .init("PostScript", F.ascii("%!PS-Adobe-3.0\n%%Title: x\n"), .postScript, "postscript"),
            .init("EPS binary", [0xC5, 0xD0, 0xD3, 0xC6, 0x20, 0, 0, 0], .postScript, "eps-binary"),
            .init("RTF", F.ascii("{\\rtf1\\ansi\\deff0 {\\fonttbl}}"), .rtf, "rtf"),
            .init("HTML", F.ascii("<!DOCTYPE html>\n<html><body></body></html>"), .html, "html-doctype"),
            .init("HTML root", F.ascii("<html lang=en>"), .html, "html-root"),
            .init(
                "HTML tag (unclosed comment)",
                F.ascii("<!-- ") + [UInt8](repeating: 0x41, count: 40),
                .html,
                "html-tag"
            ),
            .init("XML", F.ascii("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"></rss>"), .xml, "xml-declaration"),
            .init(
                "XHTML",
                F.ascii("<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">"),
                .xhtml,
                "xhtml-root"
            ),
            .init("UTF-16BE BOM", [0xFE, 0xFF, 0x00, 0x41], .plainText, "bom-utf16be"),
            .init("UTF-16LE BOM", [0xFF, 0xFE, 0x41, 0x00], .plainText, "bom-utf16le"),
            .init("UTF-8 BOM", [0xEF, 0xBB, 0xBF] + F.ascii("hello"), .plainText, "bom-utf8"),
            .init("text", F.ascii("name,size\nfoo,1\n"), .plainText, "text"),
            .init("binary", [0x01, 0x02, 0x03, 0x04, 0x41], .octetStream, "binary"),
        ]
    }()
}
