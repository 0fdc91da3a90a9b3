/// One request message as llhttp's callback log describes it (`off=N message begin` up to the next one).
public struct LLHTTPMessage: Sendable {
    /// `span[method]`, e.g. `PUT`.
    public var method = ""
    /// `span[url]`, e.g. `/url`.
    public var url = ""
    /// llhttp's method number from `headers complete` (5 = CONNECT), if the head completed.
    public var methodCode: Int?
    /// `v=1/1` from `headers complete`: (1, 1).
    public var version: (major: Int, minor: Int)?
    /// Offset just past the head's final CRLF (`off=N headers complete`), if the head completed.
    public var headEnd: Int?
    /// Whether a `Host` field was among the header fields (any letter case).
    public var hasHost = false
    /// Body bytes llhttp reported (`span[body]` lengths, chunked framing removed).
    public var bodyLength = 0
    /// `message complete` was logged.
    public var complete = false

    /// The messages of a log, in order.
    public static func messages(in log: String) -> [LLHTTPMessage] {
        var messages: [LLHTTPMessage] = []
        var fieldName = ""
        for line in log.split(separator: "\n") {
            guard let event = line.firstIndex(of: " ").map({ line[line.index(after: $0)...] }),
                let offset = Int(line.prefix { $0 != " " }.dropFirst("off=".count))
            else { continue }
            if event == "message begin" {
                messages.append(LLHTTPMessage())
                continue
            }
            guard !messages.isEmpty else { continue }
            if let (kind, length, value) = span(event) {
                switch kind {
                case "method": messages[messages.count - 1].method += value
                case "url": messages[messages.count - 1].url += value
                case "header_field": fieldName += value
                case "body": messages[messages.count - 1].bodyLength += length
                default: break
                }
            } else if event == "header_field complete" {
                if fieldName.lowercased() == "host" { messages[messages.count - 1].hasHost = true }
                fieldName = ""
            } else if event.hasPrefix("headers complete ") {
                messages[messages.count - 1].headEnd = offset
                messages[messages.count - 1].methodCode = parameter("method", in: event)
                if let version = event.split(separator: " ").first(where: { $0.hasPrefix("v=") }) {
                    let digits = version.dropFirst(2).split(separator: "/").compactMap { Int($0) }
                    if digits.count == 2 { messages[messages.count - 1].version = (digits[0], digits[1]) }
                }
            } else if event == "message complete" {
                messages[messages.count - 1].complete = true
            }
        }
        return messages
    }

    /// `len=L span[kind]="value"` → (kind, L, value as logged, without the quotes).
    private static func span(_ event: Substring) -> (String, Int, String)? {
        guard event.hasPrefix("len="), let open = event.range(of: " span["), let close = event.range(of: "]=\"")
        else { return nil }
        let length = Int(event[event.index(event.startIndex, offsetBy: 4)..<open.lowerBound]) ?? 0
        let kind = String(event[open.upperBound..<close.lowerBound])
        return (kind, length, String(event[close.upperBound...].dropLast()))
    }

    private static func parameter(_ name: String, in event: Substring) -> Int? {
        event.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
    }
}

extension CorpusCase {
    /// The request messages llhttp saw, from its log.
    public var messages: [LLHTTPMessage] { LLHTTPMessage.messages(in: log) }

    /// The input with `Host: <host>` added to every HTTP/1.1 request head llhttp completed without one.
    ///
    /// llhttp does not require Host; RFC 9112 §3.2 makes a server answer 400 to an HTTP/1.1 request without
    /// it, and partgate does (`missing_host`). 119 of the 166 request inputs have none, so sent as they are,
    /// most would only test that rule. The field goes just before the blank line that ends the head (the
    /// `headers complete` offset minus its CRLF), so every other byte keeps its position relative to the
    /// fields around it, and a head that does not end in CRLF CRLF is left alone.
    public func inputAddingHost(_ host: String = "llhttp.test") -> [UInt8] {
        var bytes = input
        let field = Array("Host: \(host)\r\n".utf8)
        for message in messages.reversed() {
            guard let end = message.headEnd, message.version?.major == 1, message.version?.minor == 1,
                !message.hasHost, end >= 4, end <= bytes.count, bytes[(end - 4)..<end].elementsEqual([13, 10, 13, 10])
            else { continue }
            bytes.insert(contentsOf: field, at: end - 2)
        }
        return bytes
    }
}
