/// Where request body bytes go while the body is read: the upstream connection (`forward: stream`) or a
/// ``Spool`` (`forward: spool`).
protocol BodySink: AnyObject {
    /// Appends body bytes (copied).
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The evbuffer that input chains are moved to without copying, or nil when bytes go through ``write(_:)``.
    var moveTarget: OpaquePointer? { get }
    /// Whether bodies are framed as chunks here (stream mode); a spooled body is sent with Content-Length.
    var framesChunks: Bool { get }
}

extension UpstreamConnection: BodySink {
    /// Plain upstreams take input chains as they are (`writev` sends them); TLS ones get copies in large
    /// chains (see ``CoalescingOutput``).
    var moveTarget: OpaquePointer? { isTLS ? nil : output }
    var framesChunks: Bool { true }
}

extension Spool: BodySink {
    /// A spool copies into dense chains, so its memory bound counts bytes, not chain capacity.
    var moveTarget: OpaquePointer? { nil }
    var framesChunks: Bool { false }
}
