import Foundation
import Policy
import ProxyEngine

/// JSON lines on standard output (one object per event), the format DESIGN.md asks for; swift-log's
/// handler replaces this in issue 5. Cheap on the hot path: the timestamp is formatted by hand (no
/// DateFormatter, whose ICU calls cost more than proxying a small request) and each line is one write.
struct ServerLog: Sendable {
    /// Writes one JSON object line with `ts`, `level`, `msg` and the given string members.
    func write(_ level: String, _ message: String, _ fields: [(String, String)] = []) {
        var object = JSONObjectWriter()
        object.add("ts", Self.timestamp())
        object.add("level", level)
        object.add("msg", message)
        for (key, value) in fields { object.add(key, value) }
        StandardStream.out.write(object.finished + "\n")
    }

    /// UTC time as `2026-11-21T21:03:25.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(now.tv_nsec / 1_000_000), 3) + "Z"
    }

    /// Engine events routed to the log.
    var events: EngineEvents {
        EngineEvents(
            onLog: { message in self.write("warning", message) },
            onAccess: { method, target, status, route in
                self.write("info", "access", [("method", method), ("target", target), ("status", String(status)), ("route", route)])
            },
            onProblem: { status, name, peer in
                self.write("info", "refused", [("status", String(status)), ("flag", name), ("client", peer)])
            },
            onAudit: { record, route, request in self.audit(record, route: route, request: request) })
    }

    /// One audit line per part: what arrived, what was forwarded, and why.
    func audit(_ record: PartAuditRecord, route: String, request: String) {
        StandardStream.out.write(Self.auditLine(record, route: route, request: request))
    }

    /// The audit line for one part (with its newline), as `serve` logs it and `rewrite --audit` prints it.
    /// - Parameters:
    ///   - record: the part's record.
    ///   - route: the route's name.
    ///   - request: the request id.
    static func auditLine(_ record: PartAuditRecord, route: String, request: String) -> String {
        var object = JSONObjectWriter()
        object.add("ts", Self.timestamp())
        object.add("level", "info")
        object.add("msg", "audit")
        object.add("request", request)
        object.add("route", route)
        object.add("index", record.index)
        object.add("name", record.name)
        object.add("forwarded_name", record.forwardedName)
        object.add("filename", record.filename)
        object.add("forwarded_filename", record.forwardedFilename)
        object.add("declared_type", record.declaredType)
        object.add("sniffed_type", record.sniffedType)
        object.add("forwarded_type", record.forwardedType)
        object.add("size", record.receivedBytes)
        object.add("forwarded_size", record.forwardedBytes)
        object.add("sha256", record.digest.map { $0.isEmpty ? nil : $0.hexString } ?? nil)
        object.add("decision", record.decisionText)
        object.add("rule", record.rule)
        object.add("report_only", record.reportOnly)
        return object.finished + "\n"
    }
}
