import Multipart

/// The multipart parser's handler on the engine side: turns parser events into ``BodyOp``s through the
/// canonical encoder (fresh boundary), without copying body bytes that lie in the current input chain.
package struct RewriteRecorder: MultipartHandler {
    /// The ops of the current batch, in order.
    package private(set) var ops: [BodyOp] = []
    /// The bytes ``BodyOp/scratch(start:count:)`` ops copy from.
    package private(set) var scratch: [UInt8] = []
    private(set) var encoder: MultipartEncoder
    /// The input chain being parsed: body pointers inside it become moves.
    package private(set) var chain: UnsafeRawBufferPointer?
    /// A part the encoder refused (names the parser let through but the encoder cannot write).
    package private(set) var encodingError: MultipartEncodingError?
    private(set) var violations: [MultipartViolation] = []
    private(set) var ended = false
    /// Parts written so far.
    private(set) var parts = 0

    init(boundary: Boundary) {
        encoder = MultipartEncoder(boundary: boundary)
        scratch.reserveCapacity(512)
        // A small form makes two ops per part (head, then data): one allocation, not growth from 1 to 8.
        ops.reserveCapacity(16)
    }

    /// A recorder for a new body that keeps `old`'s buffers (emptied) and nothing else of it; `old` must not be
    /// used again.
    init(boundary: Boundary, recycling old: inout RewriteRecorder) {
        encoder = MultipartEncoder(boundary: boundary, recycling: &old.encoder)
        swap(&ops, &old.ops)
        swap(&scratch, &old.scratch)
        ops.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(512)
        ops.reserveCapacity(16)
    }

    /// Whether the buffers are small enough to keep on an idle connection for its next body (a large form's
    /// grown buffers are dropped, so an idle connection holds at most a few KiB).
    var buffersAreSmall: Bool { scratch.capacity <= 4096 && ops.capacity <= 64 }

    /// Starts recording for a chain; ops of the previous batch must have been applied.
    mutating func begin(chain: UnsafeRawBufferPointer?) {
        self.chain = chain
        ops.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
    }

    /// Goes on recording for the chain of the ops not yet applied, after them.
    mutating func resume(chain: UnsafeRawBufferPointer) {
        precondition(self.chain?.baseAddress == chain.baseAddress, "ops resume in the chain they index")
    }

    /// Total bytes the recorded ops write.
    package var outputCount: Int { ops.reduce(0) { $0 + $1.count } }

    package mutating func partHead(_ head: consuming PartHead) {
        forwardHead(head)
    }

    package mutating func forwardHead(_ head: borrowing PartHead) {
        let start = scratch.count
        do {
            try encoder.writePartHead(head, into: &scratch)
            parts += 1
        } catch {
            encodingError = error
        }
        appendScratch(from: start)
    }

    package mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        if let chain, let base = chain.baseAddress, let pointer = bytes.baseAddress,
            pointer >= base, pointer + bytes.count <= base + chain.count
        {
            let index = pointer - base
            if case .move(let previous, let count) = ops.last, previous + count == index {
                ops[ops.count - 1] = .move(index: previous, count: count + bytes.count)
            } else {
                ops.append(.move(index: index, count: bytes.count))
            }
        } else {
            let start = scratch.count
            scratch.append(contentsOf: bytes)
            appendScratch(from: start)
        }
    }

    package mutating func partEnd() {}

    package mutating func end() {
        let start = scratch.count
        encoder.writeEnd(into: &scratch)
        appendScratch(from: start)
        ended = true
    }

    package mutating func violation(_ violation: MultipartViolation) {
        violations.append(violation)
    }

    private mutating func appendScratch(from start: Int) {
        let count = scratch.count - start
        guard count > 0 else { return }
        if case .scratch(let previous, let length) = ops.last, previous + length == start {
            ops[ops.count - 1] = .scratch(start: previous, count: length + count)
        } else {
            ops.append(.scratch(start: start, count: count))
        }
    }
}
