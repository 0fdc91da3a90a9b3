import Multipart

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
