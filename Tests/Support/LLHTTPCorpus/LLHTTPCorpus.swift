import Foundation

/// Loads the corpus: `rendered/index.json` for the expectations, and the markdown for the inputs.
///
/// The inputs are re-rendered from `md/` following llhttp's `test/md-test.ts` exactly, because the
/// pre-rendered `.bin` files drop one newline too many when a block ends in an empty line: the
/// renderer used Python's `re.sub(r'\n$', ...)`, whose `$` also matches before a final newline,
/// where md-test.ts's JavaScript `/\n$/` removes only the last one. 166 of the 251 files miss their
/// final CRLF (`PUT /url HTTP/1.1` CRLF `Connection: keep-alive` CRLF, 43 bytes, although llhttp's own
/// log says `headers complete` at offset 45). HTTP1Tests' `LLHTTPCorpusTests` checks that the two
/// renderings differ by exactly that CRLF and nothing else.
///
/// Shared by HTTP1Tests (the parsers) and ProxyEngineTests (the same bytes through the running proxy).
public enum LLHTTPCorpus {
    /// `shared/corpus/llhttp`, found from this file: Tests/Support/LLHTTPCorpus/ -> repository root -> ../shared.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus/llhttp").standardizedFileURL

    /// Every case, in index order (empty when the corpus is missing; a test checks the count).
    public static let all: [CorpusCase] = (try? load()) ?? []

    public static var requestCases: [CorpusCase] { all.filter { $0.mode.hasPrefix("request") } }
    public static var responseCases: [CorpusCase] { all.filter { $0.mode.hasPrefix("response") } }

    private struct IndexEntry: Decodable {
        let file: String
        let source_md: String
        let title: String
        let llhttp_mode: String
        let outcome: String
        let messages_completed: Int
        let error: String?
    }

    private struct Block {
        let type: String
        let skipBody: Bool
        let http: String
        let log: String
    }

    private static func load() throws -> [CorpusCase] {
        let data = try Data(contentsOf: root.appendingPathComponent("rendered/index.json"))
        let entries = try JSONDecoder().decode([IndexEntry].self, from: data)
        var blocksByFile: [String: [Block]] = [:]
        var used: [String: Int] = [:]
        var cases: [CorpusCase] = []
        for entry in entries {
            if blocksByFile[entry.source_md] == nil {
                let text = try String(contentsOf: root.appendingPathComponent(entry.source_md), encoding: .utf8)
                blocksByFile[entry.source_md] = blocks(text)
            }
            let position = used[entry.source_md, default: 0]
            used[entry.source_md] = position + 1
            let block = blocksByFile[entry.source_md]![position]
            precondition(block.type == entry.llhttp_mode, "markdown and index disagree at \(entry.file)")
            let rendered = try [UInt8](Data(contentsOf: root.appendingPathComponent(entry.file)))
            let finish = block.log.components(separatedBy: "finish=").dropFirst().first.flatMap {
                Int($0.prefix { $0.isNumber })
            }
            cases.append(
                CorpusCase(
                    file: String(entry.file.dropFirst("rendered/".count)),
                    sourceMD: entry.source_md,
                    title: entry.title,
                    mode: entry.llhttp_mode,
                    outcome: entry.outcome,
                    messagesCompleted: entry.messages_completed,
                    llhttpError: entry.error,
                    input: render(block.http),
                    rendered: rendered,
                    finish: finish,
                    skipBody: block.skipBody,
                    log: block.log
                )
            )
        }
        return cases
    }

    /// The ```http blocks of one markdown file, with their meta type and the ```log that follows.
    private static func blocks(_ markdown: String) -> [Block] {
        let lines = markdown.components(separatedBy: "\n")
        var result: [Block] = []
        var type = ""
        var skipBody = false
        var index = 0
        func fenced(from start: Int) -> (String, Int) {
            var body = ""
            var line = start
            while line < lines.count, lines[line] != "```" {
                body += lines[line] + "\n"
                line += 1
            }
            return (body, line)
        }
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("<!-- meta="), let json = line.dropFirst(10).components(separatedBy: " -->").first,
                let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            {
                type = object["type"] as? String ?? ""
                skipBody = object["skipBody"] as? Bool ?? false
            }
            if line == "```http" {
                let (http, end) = fenced(from: index + 1)
                var logStart = end + 1
                while logStart < lines.count, lines[logStart] != "```log" {
                    logStart += 1
                }
                let (log, logEnd) = fenced(from: logStart + 1)
                result.append(Block(type: type, skipBody: skipBody, http: http, log: log))
                index = logEnd
            }
            index += 1
        }
        return result
    }

    /// llhttp's md-test.ts input transformation, on Unicode scalars, then UTF-8.
    public static func render(_ block: String) -> [UInt8] {
        var text = Array(block.unicodeScalars)
        if text.last == "\n" {
            text.removeLast()
        }
        text = removingEscapedNewlines(text)
        text = normalizingNewlines(text)
        for (escape, replacement) in [("r", "\r"), ("n", "\n"), ("t", "\t"), ("f", "\u{0C}")] {
            text = replacing(text, Array(("\\" + escape).unicodeScalars), with: Array(replacement.unicodeScalars))
        }
        text = numericEscapes(text, marker: "x", radix: 16, maxDigits: .max)
        text = numericEscapes(text, marker: nil, radix: 8, maxDigits: 3)
        var output = String.UnicodeScalarView()
        output.append(contentsOf: text)
        return Array(String(output).utf8)
    }

    private static func removingEscapedNewlines(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < text.count {
            if text[index] == "\\", index + 1 < text.count, text[index + 1] == "\r" || text[index + 1] == "\n" {
                index += (text[index + 1] == "\r" && index + 2 < text.count && text[index + 2] == "\n") ? 3 : 2
                continue
            }
            output.append(text[index])
            index += 1
        }
        return output
    }

    private static func normalizingNewlines(_ text: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < text.count {
            if text[index] == "\r" || text[index] == "\n" {
                index += (text[index] == "\r" && index + 1 < text.count && text[index + 1] == "\n") ? 2 : 1
                output.append(contentsOf: ["\r", "\n"])
                continue
            }
            output.append(text[index])
            index += 1
        }
        return output
    }

    private static func replacing(
        _ text: [Unicode.Scalar],
        _ pattern: [Unicode.Scalar],
        with replacement: [Unicode.Scalar]
    ) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < text.count {
            if index + pattern.count <= text.count, Array(text[index..<(index + pattern.count)]) == pattern {
                output.append(contentsOf: replacement)
                index += pattern.count
                continue
            }
            output.append(text[index])
            index += 1
        }
        return output
    }

    /// `\xHH...` (greedy hex, as `/\\x([0-9a-fA-F]+)/g`) or `\NNN` (1-3 octal digits).
    private static func numericEscapes(
        _ text: [Unicode.Scalar],
        marker: Unicode.Scalar?,
        radix: UInt32,
        maxDigits: Int
    ) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < text.count {
            let digitsStart = index + (marker == nil ? 1 : 2)
            if text[index] == "\\", marker == nil || (index + 1 < text.count && text[index + 1] == marker!) {
                var end = digitsStart
                var value: UInt32 = 0
                while end < text.count, end - digitsStart < maxDigits,
                    let digit = Int(String(text[end]), radix: Int(radix))
                {
                    value = value &* radix &+ UInt32(digit)
                    end += 1
                }
                if end > digitsStart, let scalar = Unicode.Scalar(value & 0xFFFF) {
                    output.append(scalar)
                    index = end
                    continue
                }
            }
            output.append(text[index])
            index += 1
        }
        return output
    }
}
