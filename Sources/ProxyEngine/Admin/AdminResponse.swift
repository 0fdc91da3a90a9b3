#if canImport(Glibc)
import Glibc
#endif
import HTTP1

/// The admin listener's routing: `/metrics`, `/healthz` and `/readyz` for GET and HEAD; 404 for other paths,
/// 405 (with `Allow`) for other methods, 400 for a malformed head. Every answer closes the connection.
enum AdminResponse {
    /// The paths served.
    static let paths: Set<Substring> = ["/metrics", "/healthz", "/readyz"]

    /// The whole response to `head`.
    static func make(for head: RequestHead, handlers: AdminHandlers) -> [UInt8] {
        let path = head.target.form == .origin ? head.target.path : ""
        guard paths.contains(path) else {
            return Problem(404, "not_found", detail: "the admin listener serves /metrics, /healthz and /readyz")
                .response(toHEAD: head.method == "HEAD")
        }
        guard head.method == "GET" || head.method == "HEAD" else {
            return problem(Problem(405, "method_not_allowed", detail: "use GET or HEAD"), extra: "Allow: GET, HEAD\r\n")
        }
        let status: Int
        let contentType: String
        let body: [UInt8]
        switch path {
        case "/metrics":
            (status, contentType, body) = (200, "text/plain; version=0.0.4; charset=utf-8", handlers.metrics())
        case "/healthz":
            (status, contentType, body) = (200, "application/json", Array("{\"status\":\"ok\"}\n".utf8))
        default:
            let readiness = handlers.readiness()
            var object = JSONObjectWriter()
            object.add("ready", readiness.ready)
            if let reason = readiness.reason { object.add("reason", reason) }
            (status, contentType, body) = (
                readiness.ready ? 200 : 503, "application/json", Array((object.finished + "\n").utf8)
            )
        }
        var bytes = Array(
            ("HTTP/1.1 \(status) \(status == 200 ? "OK" : Problem.reason(status))\r\n"
                + "Date: \(HTTPDate.string(secondsSinceEpoch: Int64(time(nil))))\r\n"
                + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\n"
                + "Connection: close\r\n\r\n").utf8)
        if head.method != "HEAD" { bytes += body }
        return bytes
    }

    /// A problem response with extra header lines (each ending in CRLF) right after its status line.
    static func problem(_ problem: Problem, extra: String) -> [UInt8] {
        var bytes = problem.response
        guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return bytes }
        bytes.insert(contentsOf: Array(extra.utf8), at: lineEnd + 1)
        return bytes
    }
}
