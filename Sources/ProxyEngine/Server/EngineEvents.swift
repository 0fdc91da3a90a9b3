import Policy

/// Where the engine reports what happens: access lines, refusals, upstream trouble. The CLI turns these
/// into log lines (swift-log in issue 5); tests collect them.
public struct EngineEvents: Sendable {
    /// A part's audit record: the record, the route, the request id (routes with `audit: true`).
    public var onAudit: @Sendable (PartAuditRecord, String, String) -> Void
    /// A free-form operational message (upstream failures with their reason, ...).
    public var onLog: @Sendable (String) -> Void
    /// A response started: method, target, status, route.
    public var onAccess: @Sendable (String, String, Int, String) -> Void
    /// partgate answered a request itself with a problem (a refusal, an upstream failure).
    public var onProblem: @Sendable (RefusalEvent) -> Void
    /// A `report_only: true` route forwarded a request its policy refuses (`other_bodies: reject`).
    public var onWouldRefuse: @Sendable (ReportOnlyRefusal) -> Void
    /// When set, used instead of ``onAccess``: appends a response's access line (method, target, status,
    /// route, with its newline) to the worker's batch, which the worker writes to standard output in one
    /// `write` once the loop's current callbacks end (``AccessLineBatch``).
    public var appendAccessLine: (@Sendable (String, String, Int, String, inout [UInt8]) -> Void)?
    /// Whether access lines are wanted at all. False (a log level above info) spares each response the call to
    /// ``onAccess`` and the target's text made for it.
    public var reportsAccess = true

    public init(
        onLog: @escaping @Sendable (String) -> Void = { _ in },
        onAccess: @escaping @Sendable (String, String, Int, String) -> Void = { _, _, _, _ in },
        onProblem: @escaping @Sendable (RefusalEvent) -> Void = { _ in },
        onAudit: @escaping @Sendable (PartAuditRecord, String, String) -> Void = { _, _, _ in },
        onWouldRefuse: @escaping @Sendable (ReportOnlyRefusal) -> Void = { _ in }
    ) {
        self.onWouldRefuse = onWouldRefuse
        self.onAudit = onAudit
        self.onLog = onLog
        self.onAccess = onAccess
        self.onProblem = onProblem
    }

    func log(_ message: String) { onLog(message) }
    func access(_ method: String, _ target: String, _ status: Int, _ route: String) {
        onAccess(method, target, status, route)
    }
    func audit(_ record: PartAuditRecord, _ route: String, _ request: String) { onAudit(record, route, request) }
    func problem(_ problem: Problem, _ peer: SocketAddress, _ exchange: Exchange?) {
        onProblem(
            RefusalEvent(
                status: problem.status, flag: problem.name, client: peer.description, request: exchange?.requestID,
                route: exchange?.route.name, method: exchange?.head.method, target: exchange?.head.target.string,
                part: problem.part))
    }
}
