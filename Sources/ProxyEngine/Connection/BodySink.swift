/// Where request body bytes go while the body is read: the upstream connection (`forward: stream`) or a
/// ``Spool`` (`forward: spool`).
protocol BodySink: AnyObject {
    /// Appends body bytes (copied).
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The evbuffer that input chains are moved to without copying, or nil when bytes go through ``write(_:)``.
    var moveTarget: OpaquePointer? { get }
    /// Whether bodies are framed as chunks here (stream mode); a spooled body is sent with Content-Length.
    var framesChunks: Bool { get }
    /// Appends a whole re-encoded span (chunk framing, part heads and body bytes) that `fill` writes into one
    /// region of `count` bytes, copied into once; false, with nothing written, when bytes must go piece by
    /// piece. For an upstream the region is reserved in its output and committed once: one commit runs the
    /// buffer's callbacks (and takes its lock) once, where a dozen `evbuffer_add` calls per small request ran
    /// them a dozen times.
    func gather(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> Bool
}

extension UpstreamConnection: BodySink {
    /// Plain upstreams take input chains as they are (`writev` sends them); TLS ones get copies in large
    /// chains (see ``CoalescingOutput``).
    var moveTarget: OpaquePointer? { isTLS ? nil : output }
    var framesChunks: Bool { true }
    /// TLS upstreams copy anyway; not under `max_upstream_rate`, whose chains are kept to a tick's worth.
    func gather(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> Bool {
        guard isTLS, writeSlice == .max else { return false }
        coalescing.forget()
        return EvBuffer.append(output, count: count, fill)
    }
}

extension Spool: BodySink {
    /// A spool copies into dense chains, so its memory bound counts bytes, not chain capacity.
    var moveTarget: OpaquePointer? { nil }
    var framesChunks: Bool { false }
}
