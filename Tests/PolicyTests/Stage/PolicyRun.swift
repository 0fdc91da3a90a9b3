import Multipart

@testable import Policy

/// Fixed `{uuid}` values: `uuid-1`, `uuid-2`, … per stage.
final class UUIDSequence: @unchecked Sendable {
    // Unchecked: used from one test's thread only.
    private var next = 0

    func make() -> String {
        next += 1
        return "uuid-\(next)"
    }

    /// Starts the sequence over at `uuid-1`.
    func restart() { next = 0 }
}

/// Everything a stage did with one body.
struct PolicyRun: Sendable, Hashable {
    var parts: [RecordingHandler.Part]
    var ended: Bool
    var rejection: PolicyRejection?
    var records: [PartAuditRecord]
    /// Each part's decision, as ``PolicyStage/drainParts(_:)`` gave it.
    var decisions: [PartDecision]
    var copied: Int

    /// What must not depend on how the body was split: all of it, except, when refused, what the refused part
    /// had sent and forwarded by then.
    var splitInvariant: PolicyRun {
        var run = self
        run.copied = 0
        guard let rejection else { return run }
        run.parts = parts.filter { $0.head.index < rejection.partIndex }
        run.records = records.map { $0.index == rejection.partIndex ? $0.withoutRefusalProgress : $0 }
        return run
    }

    /// The forwarded part with this original index.
    func part(_ index: Int) -> RecordingHandler.Part? {
        parts.first { $0.head.index == index }
    }
}
