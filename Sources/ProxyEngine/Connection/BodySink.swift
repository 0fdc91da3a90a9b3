/// Where request body bytes go while the body is read: the upstream connection (`forward: stream`) or a
/// ``Spool`` (`forward: spool`).
protocol BodySink: AnyObject {
    /// Appends body bytes (copied).
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The evbuffer that input chains are moved to without copying, or nil when bytes go through ``write(_:)``.
    var moveTarget: OpaquePointer? { get }
    /// The fewest bytes of body moved to ``moveTarget`` rather than copied (0: any piece).
    var moveThreshold: Int { get }
    /// Input chains were moved to ``moveTarget``: bytes written after them start from its new last chain.
    func moved()
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
    /// Input chains are moved as they are: a plain socket `writev`s them; a TLS one `SSL_write`s each chain (a
    /// large one as full 16 KiB records). Under `max_upstream_rate` a TLS upstream copies instead, into chains of
    /// a tick's worth (see ``CoalescingOutput``).
    var moveTarget: OpaquePointer? { isTLS && writeSlice != .max ? nil : output }
    /// Plain upstreams move any piece. A TLS upstream moves pieces of a record or more (the large spans of a
    /// file) and copies smaller ones, which would each make a short record, into large chains.
    var moveThreshold: Int { isTLS ? Self.tlsMoveThreshold : 0 }
    /// A full TLS record's worth of body.
    static let tlsMoveThreshold = 16 * 1024
    var framesChunks: Bool { true }
    func moved() {
        coalescing.forget()
    }

    /// TLS upstreams take spans that hold no piece worth moving; not under `max_upstream_rate`, whose chains are
    /// kept to a tick's worth.
    func gather(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> Bool {
        guard isTLS, writeSlice == .max else { return false }
        coalescing.forget()
        return EvBuffer.append(output, count: count, fill)
    }
}

extension Spool: BodySink {
    /// A spool copies into dense chains, so its memory bound counts bytes, not chain capacity.
    var moveTarget: OpaquePointer? { nil }
    var moveThreshold: Int { .max }
    var framesChunks: Bool { false }
    func moved() {}
}
