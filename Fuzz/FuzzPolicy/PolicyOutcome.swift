import FuzzSupport
import Multipart
import Policy

/// Everything a policy stage did with one body, fed in given pieces.
struct PolicyOutcome: Equatable, CustomStringConvertible {
    struct Part: Equatable {
        var head: PartHead
        var data: [UInt8] = []
        var ended = false
    }

    var parts: [Part] = []
    var ended = false
    var parseError: MultipartError?
    var rejection: PolicyRejection?
    var decisions: [PartDecision] = []
    var records: [PartAuditRecord] = []

    var description: String {
        "\(parts.count) parts (\(parts.map { "\($0.head.name): \($0.data.count)" })), ended \(ended), "
            + "error \(parseError.map(String.init(describing:)) ?? "none"), rejection \(rejection.map(String.init(describing:)) ?? "none"), "
            + "decisions \(decisions)"
    }

    /// What must not depend on how the body was split: all of it, except, when refused, what the refused part
    /// had received and forwarded by then (the test suite's `PolicyRun.splitInvariant`), and a parse error
    /// further on: the engine answers the refusal, whatever else the span it parsed held (a span ending at the
    /// refusal never reaches the error).
    var splitInvariant: PolicyOutcome {
        guard let rejection else { return self }
        var outcome = self
        outcome.parseError = nil
        outcome.parts = parts.filter { $0.head.index < rejection.partIndex }
        outcome.records = records.map { $0.index == rejection.partIndex ? $0.withoutRefusalProgress : $0 }
        return outcome
    }

    /// Runs `body` through parser → policy stage → recorder, in the pieces `cuts` makes. With `renewedAfter`, the
    /// stage first takes those bytes as a body of their own (whatever state they leave it in) and is then renewed
    /// for `body` (``PolicyFilter/renew(downstream:)``, a keep-alive connection's next form), the `{uuid}` values
    /// starting over.
    static func run(
        _ route: RouteConfiguration, boundary: Boundary, _ body: UnsafeRawBufferPointer, cuts: [Int],
        renewedAfter previous: UnsafeRawBufferPointer? = nil
    ) -> PolicyOutcome {
        let uuids = UUIDCounter()
        let stage = PolicyStage<FNVDigest>(route: route, uuid: { uuids.make() })
        var filter = PolicyFilter(stage: stage, downstream: Recorder())
        if let previous {
            var first = MultipartParser(boundary: boundary, strictness: route.strictness)
            try? first.parse(previous, into: &filter)
            uuids.restart()
            var fresh = Recorder()
            filter.renew(downstream: &fresh)
        }
        var parser = MultipartParser(boundary: boundary, strictness: route.strictness)
        var outcome = PolicyOutcome()
        func drain() {
            filter.stage.drainParts { decision, record in
                outcome.decisions.append(decision)
                if let record { outcome.records.append(record) }
            }
        }
        var start = 0
        do {
            for end in cuts.filter({ $0 > 0 && $0 < body.count }) + [body.count] where end > start || end == body.count {
                try parser.parse(UnsafeRawBufferPointer(rebasing: body[start..<end]), into: &filter)
                drain()
                start = end
                if filter.rejection != nil { break }
            }
            if filter.rejection == nil {
                try parser.finish(into: &filter)
                drain()
            }
        } catch {
            outcome.parseError = error
            drain()
        }
        let held = HeldBytes.measure(filter.stage)
        invariant(held <= PolicyTarget.maxHeldUnits, "the stage holds \(held) units after \(body.count) body bytes")
        outcome.parts = filter.downstream.parts
        outcome.ended = filter.downstream.ended
        outcome.rejection = filter.rejection
        return outcome
    }
}

/// Records what the policy wrote downstream.
struct Recorder: MultipartHandler {
    var parts: [PolicyOutcome.Part] = []
    var ended = false

    mutating func partHead(_ head: consuming PartHead) {
        invariant(parts.last?.ended ?? true, "a head was written inside part \(parts.count - 1)")
        invariant(!ended, "a head was written after the end")
        parts.append(PolicyOutcome.Part(head: head))
    }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        invariant(!parts.isEmpty && !parts[parts.count - 1].ended, "body bytes outside a written part")
        parts[parts.count - 1].data += bytes
    }

    mutating func partEnd() {
        invariant(!parts.isEmpty && !parts[parts.count - 1].ended, "a part ended twice or before its head")
        parts[parts.count - 1].ended = true
    }

    mutating func end() {
        invariant(parts.last?.ended ?? true, "the body ended inside part \(parts.count - 1)")
        ended = true
    }

    mutating func violation(_ violation: MultipartViolation) {}
}

/// Fixed `{uuid}` values, `uuid-1`, `uuid-2`, … per stage, so that renamed filenames compare across runs.
final class UUIDCounter: @unchecked Sendable {
    // Unchecked: a fuzz input runs on one thread.
    private var next = 0
    func make() -> String {
        next += 1
        return "uuid-\(next)"
    }

    /// Starts over at `uuid-1`.
    func restart() { next = 0 }
}

/// A cheap digest (FNV-1a and a length) so that audit records carry one that depends on every byte.
struct FNVDigest: PartDigest {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    private var count = 0

    init() {}

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    mutating func finalize() -> [UInt8] {
        defer { self = FNVDigest() }
        return withUnsafeBytes(of: hash.bigEndian) { Array($0) } + withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).bigEndian) { Array($0) }
    }
}
