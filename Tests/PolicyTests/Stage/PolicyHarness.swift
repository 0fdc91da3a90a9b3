import Multipart
import Sniff
import Testing

@testable import Policy

/// One part of a test body.
struct FormPart: Sendable {
    var name: String
    var filename: String?
    var contentType: String?
    var headers: [(String, String)] = []
    var data: [UInt8]

    init(
        _ name: String, filename: String? = nil, type contentType: String? = nil, headers: [(String, String)] = [],
        _ data: [UInt8]
    ) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
        self.data = data
    }

    init(_ name: String, filename: String? = nil, type contentType: String? = nil, text: String) {
        self.init(name, filename: filename, type: contentType, Array(text.utf8))
    }
}

/// A body built from parts, with where each part's data lies (for cut points).
struct FormBody: Sendable {
    static let boundary = "policy-test-7Fq2xZ"

    var bytes: [UInt8]
    /// Offsets of each part's data start and end.
    var dataRanges: [Range<Int>]

    init(_ parts: [FormPart]) {
        var out: [UInt8] = []
        var ranges: [Range<Int>] = []
        for part in parts {
            var head = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n"
            if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
            for (name, value) in part.headers { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            out += Array(head.utf8)
            ranges.append(out.count..<(out.count + part.data.count))
            out += part.data
            out += Array("\r\n".utf8)
        }
        out += Array("--\(Self.boundary)--\r\n".utf8)
        bytes = out
        dataRanges = ranges
    }

    /// Where to cut the body in two: every offset of a small body; for a large one, the offsets around each part's
    /// data edges and sniff-window edge plus a spread of others.
    var cutPoints: [Int] {
        guard bytes.count > 1200 else { return Array(0...bytes.count) }
        var cuts = Set<Int>()
        for range in dataRanges {
            for edge in [range.lowerBound, range.upperBound, range.lowerBound + sniffWindowSize] {
                for delta in -3...3 where (0...bytes.count).contains(edge + delta) { cuts.insert(edge + delta) }
            }
        }
        for cut in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 150)) { cuts.insert(cut) }
        return cuts.sorted()
    }
}

/// Records what the policy wrote downstream, and whether body bytes arrived as pointers into the parsed span.
struct RecordingHandler: MultipartHandler {
    struct Part: Sendable, Hashable {
        var head: PartHead
        var data: [UInt8] = []
        var ended = false
    }

    var parts: [Part] = []
    var ended = false
    /// The span being parsed.
    var input: UnsafeRawBufferPointer?
    /// Body bytes that did not point into the span being parsed (held bytes, parser carry).
    var copied = 0

    mutating func partHead(_ head: PartHead) {
        parts.append(Part(head: head))
    }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        precondition(!parts.isEmpty && !parts[parts.count - 1].ended, "body bytes outside a written part")
        parts[parts.count - 1].data += bytes
        if let input, let base = input.baseAddress, let pointer = bytes.baseAddress, pointer >= base,
            pointer + bytes.count <= base + input.count
        {
            return
        }
        copied += bytes.count
    }

    mutating func partEnd() {
        parts[parts.count - 1].ended = true
    }

    mutating func end() {
        ended = true
    }

    mutating func violation(_ violation: MultipartViolation) {}
}

/// Fixed `{uuid}` values: `uuid-1`, `uuid-2`, … per stage.
final class UUIDSequence: @unchecked Sendable {
    // Unchecked: used from one test's thread only.
    private var next = 0

    func make() -> String {
        next += 1
        return "uuid-\(next)"
    }
}

/// Everything a stage did with one body.
struct PolicyRun: Sendable, Hashable {
    var parts: [RecordingHandler.Part]
    var ended: Bool
    var rejection: PolicyRejection?
    var records: [PartAuditRecord]
    var copied: Int

    /// What must not depend on how the body was split: all of it, except, when refused, what the refused part
    /// had sent and forwarded by then.
    var splitInvariant: PolicyRun {
        var run = self
        run.copied = 0
        guard let rejection else { return run }
        run.parts = parts.filter { $0.head.index < rejection.partIndex }
        run.records = records.map { record in
            guard record.index == rejection.partIndex else { return record }
            var record = record
            record.receivedBytes = 0
            record.forwardedBytes = 0
            record.digest = nil
            record.sniffedType = nil
            record.forwardedName = nil
            record.forwardedFilename = nil
            record.forwardedType = nil
            return record
        }
        return run
    }

    /// The forwarded part with this original index.
    func part(_ index: Int) -> RecordingHandler.Part? {
        parts.first { $0.head.index == index }
    }
}

enum PolicyHarness {
    /// Runs a body through parser → policy → recorder, in pieces cut at `cuts`.
    static func run(
        _ route: RouteConfiguration, _ body: [UInt8], cuts: [Int] = [], strictness: Strictness = Strictness()
    ) throws -> PolicyRun {
        let uuids = UUIDSequence()
        let stage = PolicyStage<CountingDigest>(route: route, uuid: { uuids.make() })
        var filter = PolicyFilter(stage: stage, downstream: RecordingHandler())
        var parser = MultipartParser(boundary: Boundary(FormBody.boundary)!, strictness: strictness)
        var records: [PartAuditRecord] = []
        var start = 0
        for end in cuts + [body.count] where end >= start {
            let piece = Array(body[start..<end])
            try piece.withUnsafeBytes { span in
                filter.downstream.input = span
                try parser.parse(span, into: &filter)
                filter.downstream.input = nil
            }
            records += filter.stage.takeAuditRecords()
            start = end
            if filter.rejection != nil { break }
        }
        if filter.rejection == nil {
            try parser.finish(into: &filter)
            records += filter.stage.takeAuditRecords()
        }
        return PolicyRun(
            parts: filter.downstream.parts, ended: filter.downstream.ended, rejection: filter.rejection,
            records: records, copied: filter.downstream.copied)
    }

    /// Runs the body whole, byte by byte and cut in two at every cut point; expects the same split-invariant
    /// result each time and returns the whole run.
    static func runEverySplit(
        _ route: RouteConfiguration, _ body: FormBody, strictness: Strictness = Strictness(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PolicyRun {
        let whole = try run(route, body.bytes, strictness: strictness)
        let expected = whole.splitInvariant
        let byteByByte = try run(route, body.bytes, cuts: Array(1..<max(1, body.bytes.count)), strictness: strictness)
        #expect(byteByByte.splitInvariant == expected, "byte by byte", sourceLocation: sourceLocation)
        for cut in body.cutPoints {
            let split = try run(route, body.bytes, cuts: [cut], strictness: strictness)
            if split.splitInvariant != expected {
                Issue.record("split at \(cut) differs: \(split.splitInvariant) vs \(expected)", sourceLocation: sourceLocation)
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
