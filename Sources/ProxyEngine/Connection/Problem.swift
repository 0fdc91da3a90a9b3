#if canImport(Glibc)
import Glibc
#endif
import HTTP1
/// An error answer to a client: RFC 9457 `application/problem+json` with the status, a short title and the
/// rule or flag that fired; never internal details (those go to the log).
///
/// `package` so that `partgate rewrite` prints exactly the answer the engine sends.
package struct Problem: Error, Sendable, Equatable {
    /// The HTTP status.
    package var status: Int
    /// The strict flag, limit or rule name that fired (`lf_line`, `limit_parts`, `no_route`, …).
    package var name: String
    /// One sentence for humans.
    package var detail: String?
    /// The part index, for multipart problems.
    package var part: Int?

    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - name: the flag, limit or rule that fired (the JSON `flag`).
    ///   - detail: one sentence for humans.
    ///   - part: the part index, for multipart problems.
    package init(_ status: Int, _ name: String, detail: String? = nil, part: Int? = nil) {
        self.status = status
        self.name = name
        self.detail = detail
        self.part = part
    }

    /// The whole response: status line, headers (always `Connection: close`) and the JSON body.
    package var response: [UInt8] { response(toHEAD: false) }

    /// The whole response, dated now; to a HEAD request without its body (RFC 9110 §9.3.2), its Content-Length
    /// still the body's.
    package func response(toHEAD: Bool, now: Int64 = Int64(time(nil))) -> [UInt8] {
        var object = JSONObjectWriter()
        object.add("type", "about:blank")
        object.add("title", Self.reason(status))
        object.add("status", status)
        object.add("flag", name)
        if let part { object.add("part", part) }
        if let detail { object.add("detail", detail) }
        let body = object.finished + "\n"
        let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nDate: \(HTTPDate.string(secondsSinceEpoch: now))\r\n"
            + "Content-Type: application/problem+json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((toHEAD ? head : head + body).utf8)
    }

    /// The reason phrase for `status` (`Content Too Large` for 413).
    package static func reason(_ status: Int) -> String {
        switch status {
        // RFC 9110 §15 and the registry's other 4xx (a rule's `reject: { status: }` may pick any of them).
        case 100: return "Continue"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 418: return "I'm a teapot"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 423: return "Locked"
        case 424: return "Failed Dependency"
        case 425: return "Too Early"
        case 426: return "Upgrade Required"
        case 428: return "Precondition Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 451: return "Unavailable For Legal Reasons"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return status < 500 ? "Client Error" : "Server Error"
        }
    }
}
