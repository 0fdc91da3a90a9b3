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
    package var response: [UInt8] {
        var object = JSONObjectWriter()
        object.add("type", "about:blank")
        object.add("title", Self.reason(status))
        object.add("status", status)
        object.add("flag", name)
        if let part { object.add("part", part) }
        if let detail { object.add("detail", detail) }
        let body = object.finished + "\n"
        let head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: application/problem+json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// The reason phrase for `status` (`Content Too Large` for 413).
    package static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 431: return "Request Header Fields Too Large"
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
