// Rules for markup: PHP open tags, SVG / XHTML / HTML found by walking the prolog to the root element, then the
// WHATWG HTML tag table and `<?xml`.

extension SniffScanner {
    private static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The WHATWG "unknown type" HTML patterns; each must be followed by a tag-terminating byte (SP or `>`).
    private static let htmlPatterns: [StaticString] = [
        "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE",
        "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--",
    ]
    /// The same element names, for a root element found after a prolog.
    private static let htmlElementNames: [StaticString] = [
        "html", "head", "script", "iframe", "h1", "div", "font", "table", "a", "style", "title", "b", "body", "br",
        "p",
    ]

    /// Markup after optional whitespace. Unlike WHATWG, a UTF-8 BOM does not hide markup: an upload gateway
    /// must not let "BOM + `<script>`" pass as text/plain.
    mutating func matchMarkup() -> Match? {
        let afterBOM = matches(Self.utf8BOM, at: 0) ? 3 : 0
        guard let start = skipWhitespace(from: afterBOM), bytes[start] == UInt8(ascii: "<") else { return nil }
        if matches("<?php", at: start, ignoringCase: true) || matches("<?=", at: start) { return (.php, "php-tag") }
        if let match = matchRootElement(from: start) { return match }
        for pattern in Self.htmlPatterns where matches(pattern, at: start, ignoringCase: true) {
            if let next = byte(start + pattern.utf8CodeUnitCount), next == 0x20 || next == 0x3E {
                return (.html, "html-tag")
            }
        }
        if matches("<?xml", at: start) { return (.xml, "xml-declaration") }
        return nil
    }

    /// Skips the prolog (XML declaration, processing instructions, comments, DOCTYPE) and classifies the root
    /// element: `svg` is SVG; `html` after an XML declaration is XHTML; an HTML element without one is HTML.
    /// Returns nil for any other root, or when the window ends inside the prolog.
    private mutating func matchRootElement(from start: Int) -> Match? {
        let xmlDeclared = matches("<?xml", at: start)
        var index = start
        while let next = skipWhitespace(from: index), bytes[next] == UInt8(ascii: "<") {
            if matches("<?", at: next) {
                guard let end = find("?>", from: next + 2) else { return nil }
                index = end
            } else if matches("<!--", at: next) {
                guard let end = find("-->", from: next + 4) else { return nil }
                index = end
            } else if matches("<!DOCTYPE", at: next, ignoringCase: true) {
                if !xmlDeclared, let name = skipWhitespace(from: next + 9),
                    matches("html", at: name, ignoringCase: true),
                    let after = byte(name + 4), !Self.isNameByte(after)
                {
                    return (.html, "html-doctype")
                }
                guard let end = findDoctypeEnd(from: next + 9) else { return nil }
                index = end
            } else {
                return classifyRootElement(at: next + 1, xmlDeclared: xmlDeclared)
            }
        }
        return nil
    }

    /// Classifies the element whose name starts at `nameStart`.
    private mutating func classifyRootElement(at nameStart: Int, xmlDeclared: Bool) -> Match? {
        var nameEnd = nameStart
        while let value = byte(nameEnd), Self.isNameByte(value) { nameEnd += 1 }
        guard nameEnd > nameStart, let terminator = byte(nameEnd),
            Self.isWhitespace(terminator) || terminator == UInt8(ascii: ">") || terminator == UInt8(ascii: "/")
        else { return nil }
        let name = nameStart..<nameEnd
        // A namespace prefix does not change the element: `<svg:svg xmlns:svg=...>` is SVG.
        var localStart = nameEnd
        while localStart > nameStart && bytes[localStart - 1] != UInt8(ascii: ":") { localStart -= 1 }
        let localName = localStart..<nameEnd
        if equalsIgnoringCase(localName, "svg") { return (.svg, "svg-root") }
        if xmlDeclared {
            return equalsIgnoringCase(localName, "html") ? (.xhtml, "xhtml-root") : nil
        }
        for element in Self.htmlElementNames where equalsIgnoringCase(name, element) { return (.html, "html-root") }
        return nil
    }

    /// The index just past the first `pattern` at or after `offset`, or nil if the window ends first.
    private mutating func find(_ pattern: StaticString, from offset: Int) -> Int? {
        var index = offset
        while has(index) {
            if matches(pattern, at: index) { return index + pattern.utf8CodeUnitCount }
            index += 1
        }
        return nil
    }

    /// The index just past the `>` that closes a DOCTYPE, skipping quoted literals and an internal subset.
    private mutating func findDoctypeEnd(from offset: Int) -> Int? {
        var index = offset
        var quote: UInt8? = nil
        var inSubset = false
        while let value = byte(index) {
            index += 1
            if let open = quote {
                if value == open { quote = nil }
            } else if value == UInt8(ascii: "\"") || value == UInt8(ascii: "'") {
                quote = value
            } else if value == UInt8(ascii: "[") {
                inSubset = true
            } else if value == UInt8(ascii: "]") {
                inSubset = false
            } else if value == UInt8(ascii: ">") && !inSubset {
                return index
            }
        }
        return nil
    }

    /// Whether the bytes in `range` (inside the window) spell `text`, ASCII case-insensitively.
    private func equalsIgnoringCase(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            expected.indices.allSatisfy {
                Self.asciiLowercased(bytes[range.lowerBound + $0]) == Self.asciiLowercased(expected[$0])
            }
        }
    }

    /// Bytes allowed in an XML/HTML element name: ASCII letters and digits, `-`, `_`, `.`, `:` and non-ASCII.
    private static func isNameByte(_ value: UInt8) -> Bool {
        (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
            || value == 0x2D || value == 0x5F || value == 0x2E || value == 0x3A || value >= 0x80
    }
}
