import Multipart
import Sniff
import Testing

@testable import Policy

enum PolicyHarness {
    /// Runs a body through parser → policy → recorder, in pieces cut at `cuts`.
    static func run(
        _ route: RouteConfiguration, _ body: [UInt8], cuts: [Int] = [], strictness: Strictness = Strictness(),
        auditDetail: Bool = true, auditRecords: Bool = true
    ) throws -> PolicyRun {
        let uuids = UUIDSequence()
        let stage = PolicyStage<CountingDigest>(
            route: route, auditDetail: auditDetail, auditRecords: auditRecords, uuid: { uuids.make() })
        var filter = PolicyFilter(stage: stage, downstream: RecordingHandler())
        return try feed(&filter, body, cuts: cuts, strictness: strictness)
    }

    /// Runs `previous` through a new stage (to its end when `finishing`, else leaving it cut off there, its
    /// decisions not drained), renews the stage (``PolicyStage/renew()``), then runs `body` as ``run(_:_:cuts:strictness:auditDetail:auditRecords:)``
    /// does. The `{uuid}` values start over for `body`, so that the result compares with a new stage's.
    static func runRenewed(
        _ route: RouteConfiguration, after previous: [UInt8], finishing: Bool, _ body: [UInt8], cuts: [Int] = [],
        auditRecords: Bool = true
    ) throws -> PolicyRun {
        let uuids = UUIDSequence()
        let stage = PolicyStage<CountingDigest>(route: route, auditRecords: auditRecords, uuid: { uuids.make() })
        var filter = PolicyFilter(stage: stage, downstream: RecordingHandler())
        var parser = MultipartParser(boundary: Boundary(FormBody.boundary)!)
        do {
            try previous.withUnsafeBytes { span in
                filter.downstream.input = span
                try parser.parse(span, into: &filter)
                filter.downstream.input = nil
            }
            if finishing { try parser.finish(into: &filter) }
        } catch {
            // A body the parser refused leaves the stage where it was, as on a connection.
        }
        uuids.restart()
        var fresh = RecordingHandler()
        filter.renew(downstream: &fresh)
        return try feed(&filter, body, cuts: cuts, strictness: Strictness())
    }

    /// Parses `body` into `filter` in pieces cut at `cuts`, draining decisions after each piece.
    private static func feed(
        _ filter: inout PolicyFilter<CountingDigest, RecordingHandler>, _ body: [UInt8], cuts: [Int],
        strictness: Strictness
    ) throws -> PolicyRun {
        var parser = MultipartParser(boundary: Boundary(FormBody.boundary)!, strictness: strictness)
        var records: [PartAuditRecord] = []
        var decisions: [PartDecision] = []
        func drain() {
            filter.stage.drainParts { decision, record in
                decisions.append(decision)
                if let record { records.append(record) }
            }
        }
        var start = 0
        for end in cuts + [body.count] where end >= start {
            let piece = Array(body[start..<end])
            try piece.withUnsafeBytes { span in
                filter.downstream.input = span
                try parser.parse(span, into: &filter)
                filter.downstream.input = nil
            }
            drain()
            start = end
            if filter.rejection != nil { break }
        }
        if filter.rejection == nil {
            try parser.finish(into: &filter)
            drain()
        }
        return PolicyRun(
            parts: filter.downstream.parts, ended: filter.downstream.ended, rejection: filter.rejection,
            records: records, decisions: decisions, copied: filter.downstream.copied)
    }

    /// Runs the body whole, byte by byte and cut in two at every cut point; expects the same split-invariant
    /// result each time and returns the whole run.
    static func runEverySplit(
        _ route: RouteConfiguration, _ body: FormBody, strictness: Strictness = Strictness(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PolicyRun {
        let whole = try run(route, body.bytes, strictness: strictness)
        let expected = whole.splitInvariant
        #expect(whole.decisions == whole.records.map(PartDecision.init), "decisions", sourceLocation: sourceLocation)
        // Without audit records the stage forwards and decides the same, and keeps no record.
        var light = try run(route, body.bytes, strictness: strictness, auditRecords: false)
        #expect(light.records.isEmpty == !route.reportOnly || light.records == whole.records, sourceLocation: sourceLocation)
        light.records = whole.records
        #expect(light == whole, "without audit records", sourceLocation: sourceLocation)
        let byteByByte = try run(route, body.bytes, cuts: Array(1..<max(1, body.bytes.count)), strictness: strictness)
        #expect(byteByByte.splitInvariant == expected, "byte by byte", sourceLocation: sourceLocation)
        for cut in body.cutPoints {
            let split = try run(route, body.bytes, cuts: [cut], strictness: strictness)
            if split.splitInvariant != expected {
                Issue.record(
                    "split at \(cut) differs: \(split.splitInvariant) vs \(expected)", sourceLocation: sourceLocation)
                break
            }
        }
        return whole
    }

    /// The digest the stage should record for forwarded bytes.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = CountingDigest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finalize()
    }
}

/// Route and rule builders.
enum Build {
    static func route(
        _ rules: [Rule] = [], default defaultAction: RouteConfiguration.DefaultPartAction = .pass,
        reportOnly: Bool = false, charsets: [String] = RouteConfiguration.defaultCharsets,
        unsafeFilenames: RouteConfiguration.UnsafeFilenameAction = .sanitize
    ) -> RouteConfiguration {
        RouteConfiguration(
            name: "test", upstream: "u", reportOnly: reportOnly, defaultAction: defaultAction, charsets: charsets,
            unsafeFilenames: unsafeFilenames, rules: rules)
    }

    /// Case-sensitive globs (field names, filenames).
    static func names(_ patterns: String...) -> [Glob] {
        patterns.map { try! Glob($0) }
    }

    /// Case-insensitive globs (types, extensions).
    static func types(_ patterns: String...) -> [Glob] {
        patterns.map { try! Glob($0, caseInsensitive: true) }
    }

    static func template(_ text: String) -> NameTemplate {
        try! NameTemplate(text)
    }
}
