import Multipart

/// A ``MultipartHandler`` that runs a ``PolicyStage`` between the parser and a downstream handler (the engine's
/// encoder/recorder), carrying out every action.
///
/// Forwarded body bytes reach `downstream.partBody` as sub-ranges of the very span the parser passed in, so a
/// downstream that recognises pointers into its input (and moves those bytes instead of copying) keeps doing
/// so; held bytes arrive as a pointer into a stage-owned array, valid only during the call, to be copied. After
/// a rejection nothing more reaches downstream, not even ``end()``: the caller checks ``rejection`` after each
/// parse call and, when it is set, answers with it instead of writing what downstream recorded for that call.
public struct PolicyFilter<Digest: PartDigest, Downstream: MultipartHandler>: MultipartHandler {
    /// The policy stage.
    public var stage: PolicyStage<Digest>
    /// Where the policy's output goes.
    public var downstream: Downstream
    /// Body offset of the current part's first data byte (for held bytes).
    private var partDataOffset: Int64?

    /// - Parameters:
    ///   - stage: the stage for this request.
    ///   - downstream: receives the policy's output as multipart events.
    public init(stage: PolicyStage<Digest>, downstream: Downstream) {
        self.stage = stage
        self.downstream = downstream
    }

    /// Starts over on a new body of the same route (``PolicyStage/renew()``) with `downstream` for it.
    public mutating func renew(downstream fresh: inout Downstream) {
        stage.renew()
        swap(&downstream, &fresh)
        partDataOffset = nil
    }

    /// The rejection, once the policy refused the request.
    public var rejection: PolicyRejection? { stage.rejection }

    /// Runs the stage on a part head; passes on the head it writes, if any.
    public mutating func partHead(_ head: consuming PartHead) {
        partDataOffset = nil
        stage.partHead(head, writingTo: &downstream)
    }

    /// Runs the stage on body bytes; passes on the forwarded sub-range of `bytes` (same memory), preceded, when
    /// a held part is released, by its head and held bytes.
    public mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        if partDataOffset == nil { partDataOffset = offset }
        switch stage.partBody(bytes) {
        case .none, .reject:
            break
        case .forward(let range):
            downstream.partBody(
                UnsafeRawBufferPointer(rebasing: bytes[range]), offset: offset + Int64(range.lowerBound))
        case .release(let head, let held, let range):
            downstream.partHead(head)
            writeHeld(held)
            if !range.isEmpty {
                downstream.partBody(
                    UnsafeRawBufferPointer(rebasing: bytes[range]), offset: offset + Int64(range.lowerBound))
            }
        }
    }

    /// Runs the stage on a part's end; ends the part downstream if it was written (releasing it first if held).
    public mutating func partEnd() {
        switch stage.partEnd() {
        case .none, .reject:
            break
        case .endPart:
            downstream.partEnd()
        case .release(let head, let held):
            downstream.partHead(head)
            writeHeld(held)
            downstream.partEnd()
        }
    }

    /// Passes the end of the body on, unless the request was refused.
    public mutating func end() {
        guard stage.rejection == nil else { return }
        stage.end()
        downstream.end()
    }

    /// Passes a normalised strictness violation on, unless the request was refused.
    public mutating func violation(_ violation: MultipartViolation) {
        guard stage.rejection == nil else { return }
        stage.violation(violation)
        downstream.violation(violation)
    }

    private mutating func writeHeld(_ held: [UInt8]) {
        guard !held.isEmpty else { return }
        let offset = partDataOffset ?? 0
        held.withUnsafeBytes { downstream.partBody($0, offset: offset) }
    }
}
