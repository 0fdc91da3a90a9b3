import Multipart
import Sniff

/// A ``MultipartHandler`` that summarises each part while it streams: size, digest and sniffed type.
///
/// Holds only the current part's head, its sniff window (≤ 1445 bytes) and a digest state, whatever the
/// part's size. Completed summaries and normalised violations accumulate until ``takeCompleted()``.
public struct PartInspector<Digest: PartDigest>: MultipartHandler {
    private var head: PartHead?
    private var window = SniffWindow()
    private var digest = Digest()
    private var size: Int64 = 0
    private var completed: [PartSummary] = []
    /// Violations of checks set to normalize, in body order.
    public private(set) var violations: [MultipartViolation] = []
    /// Parts completed so far.
    public private(set) var partCount = 0
    /// Whether the body ended well-formed.
    public private(set) var ended = false

    /// An inspector with no parts yet.
    public init() {}

    /// The summaries completed since the last call.
    public mutating func takeCompleted() -> [PartSummary] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    public mutating func partHead(_ head: PartHead) {
        self.head = head
        window.reset()
        size = 0
    }

    public mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        if !window.isFull {
            window.append(bytes)
        }
        digest.update(bytes)
        size += Int64(bytes.count)
    }

    public mutating func partEnd() {
        guard let head else { return }
        let sniffed = window.sniff(complete: size == Int64(window.count))
        completed.append(PartSummary(index: head.index, name: head.name, filename: head.filename,
                                     declaredType: head.contentType, sniffed: sniffed, size: size,
                                     digest: digest.finalize()))
        self.head = nil
        partCount += 1
    }

    public mutating func end() {
        ended = true
    }

    public mutating func violation(_ violation: MultipartViolation) {
        violations.append(violation)
    }
}
