import Foundation
import Logging
import Policy
import ProxyEngine

/// The server's log through swift-log: JSON lines on standard output (text on a terminal unless `--log-format
/// json`), access lines per request, audit lines per part, refusals and upstream trouble.
struct ServerLog: Sendable {
    let logger: Logger

    /// Bootstraps swift-log once and makes the server's logger.
    /// - Parameters:
    ///   - level: the lowest level written.
    ///   - json: JSON lines (default when standard output is not a terminal) or text.
    init(level: Logger.Level = .info, json: Bool = isatty(1) == 0) {
        ServerLog.bootstrap(json: json)
        var logger = Logger(label: "partgate")
        logger.logLevel = level
        self.logger = logger
    }

    private static let bootstrapped = NSLock()
    nonisolated(unsafe) private static var done = false
    nonisolated(unsafe) private static var jsonLines = false

    private static func bootstrap(json: Bool) {
        bootstrapped.lock()
        defer { bootstrapped.unlock() }
        guard !done else { return }
        done = true
        jsonLines = json
        LoggingSystem.bootstrap { _ in json ? JSONLogHandler() as any LogHandler : TextLogHandler() }
    }

    /// Whether the process logs JSON lines through ``JSONLogHandler`` (fixed at the first bootstrap).
    private static var logsJSON: Bool {
        bootstrapped.lock()
        defer { bootstrapped.unlock() }
        return jsonLines
    }

    /// A line at `level` with string fields.
    func write(_ level: Logger.Level, _ message: String, _ fields: [(String, Logger.Metadata.Value)] = []) {
        logger.log(level: level, "\(message)", metadata: Dictionary(fields, uniquingKeysWith: { _, new in new }))
    }

    /// Engine events routed to the log.
    ///
    /// In JSON at level info or below, access lines are made straight as bytes by
    /// ``JSONLogHandler/appendAccessLine(method:target:status:route:into:)``, byte for byte the line swift-log's
    /// path writes, without its metadata dictionary, sorting and boxing; each worker writes them in batches, one
    /// `write` per loop turn.
    var events: EngineEvents {
        var events = EngineEvents(
            onLog: { message in self.write(.warning, message) },
            onAccess: { method, target, status, route in
                self.logger.info("access", metadata: ["method": .string(method), "target": .string(target),
                                                      "status": .stringConvertible(status), "route": .string(route)])
            },
            onProblem: { refusal in self.write(.info, "refused", Self.refusalFields(refusal)) },
            onAudit: { record, route, request in self.audit(record, route: route, request: request) },
            onWouldRefuse: { refusal in self.logger.info("would_refuse", metadata: Self.wouldRefuseFields(refusal)) })
        events.reportsAccess = logger.logLevel <= .info
        if Self.logsJSON, logger.logLevel <= .info {
            events.appendAccessLine = { method, target, status, route, bytes in
                JSONLogHandler.appendAccessLine(method: method, target: target, status: status, route: route,
                                                into: &bytes)
            }
        }
        return events
    }

    /// A refusal as log fields: status, flag and client, and the request's id, route, method, target and part
    /// when known.
    static func refusalFields(_ refusal: RefusalEvent) -> [(String, Logger.Metadata.Value)] {
        var fields: [(String, Logger.Metadata.Value)] = [
            ("status", .stringConvertible(refusal.status)), ("flag", .string(refusal.flag)),
            ("client", .string(refusal.client)),
        ]
        if let request = refusal.request { fields.append(("request", .string(request))) }
        if let route = refusal.route { fields.append(("route", .string(route))) }
        if let method = refusal.method { fields.append(("method", .string(method))) }
        if let target = refusal.target { fields.append(("target", .string(target))) }
        if let part = refusal.part { fields.append(("part", .stringConvertible(part))) }
        return fields
    }

    /// The line for a request a `report_only: true` route forwarded although its policy refuses it, as `serve`
    /// logs it in JSON and `rewrite` prints it.
    /// - Parameter refusal: what an enforcing route would have answered.
    static func wouldRefuseLine(_ refusal: ReportOnlyRefusal) -> String {
        JSONLogHandler.line(level: .info, message: "would_refuse", metadata: wouldRefuseFields(refusal))
    }

    /// A report-only refusal as log metadata: the status and flag an enforcing route would have answered.
    static func wouldRefuseFields(_ refusal: ReportOnlyRefusal) -> Logger.Metadata {
        [
            "request": .string(refusal.request), "route": .string(refusal.route),
            "method": .string(refusal.method), "target": .string(refusal.target),
            "status": .stringConvertible(refusal.status), "flag": .string(refusal.flag),
            "report_only": .stringConvertible(true),
        ]
    }

    /// One audit line per part: what arrived, what was forwarded, and why.
    func audit(_ record: PartAuditRecord, route: String, request: String) {
        logger.info("audit", metadata: Self.auditFields(record, route: route, request: request))
    }

    /// The audit line for one part (with its newline), as `serve` logs it in JSON and `rewrite --audit` prints it.
    /// - Parameters:
    ///   - record: the part's record.
    ///   - route: the route's name.
    ///   - request: the request id.
    static func auditLine(_ record: PartAuditRecord, route: String, request: String) -> String {
        JSONLogHandler.line(level: .info, message: "audit", metadata: auditFields(record, route: route, request: request))
    }

    /// An audit record as log metadata.
    static func auditFields(_ record: PartAuditRecord, route: String, request: String) -> Logger.Metadata {
        var fields: Logger.Metadata = [
            "request": .string(request), "route": .string(route), "index": .stringConvertible(record.index),
            "name": .string(record.name), "size": .stringConvertible(record.receivedBytes),
            "forwarded_size": .stringConvertible(record.forwardedBytes), "decision": .string(record.decisionText),
            "report_only": .stringConvertible(record.reportOnly),
        ]
        func optional(_ key: String, _ value: String?) {
            if let value { fields[key] = .string(value) }
        }
        optional("forwarded_name", record.forwardedName)
        optional("filename", record.filename)
        optional("forwarded_filename", record.forwardedFilename)
        optional("declared_type", record.declaredType)
        optional("sniffed_type", record.sniffedType)
        optional("forwarded_type", record.forwardedType)
        optional("rule", record.rule)
        if !record.matchedRules.isEmpty { fields["matched_rules"] = .array(record.matchedRules.map { .string($0) }) }
        optional("detail", record.detail)
        if let digest = record.digest, !digest.isEmpty { optional("sha256", digest.hexString) }
        return fields
    }
}
