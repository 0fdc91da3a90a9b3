import HTTP1

/// What a keep-alive connection keeps between requests, and when it lets go of it.
///
/// An exchange that ends leaves its multipart rewriter (object, policy stage and output buffers) and the request
/// and response heads' field buffers to the connection, so that the next request on it allocates none of them.
/// That saves ~1 % of a small request's instructions on a busy connection, and costs ~5 KiB on an idle one
/// (bench/README.md, stop 47: 8.0 KiB of heap per idle keep-alive connection after a multipart request, nginx
/// 0.5 KiB, HAProxy 1.3 KiB). So the spares are dropped once the connection has been idle for
/// ``EngineSettings/idleTrimDelay`` (1 s): nginx frees a keep-alive connection's request buffers at once, which
/// the busy case here would pay for on every request.
extension ClientConnection {
    /// Whether the connection holds spares for its next exchange (for tests and diagnostics).
    var holdsSpares: Bool {
        spareRewriter != nil || spareRequestFields != nil || spareResponseFields != nil
    }

    /// Drops the spares, if the connection is between requests: no exchange, no byte of a next head received or
    /// buffered. (A connection that is not idle keeps them; the next exchange to end schedules the trim again.)
    func trimIdleState() {
        guard phase == .head, exchange == nil, heads.isIdle, isOpen, EvBuffer.length(input) == 0 else { return }
        spareRewriter = nil
        spareRequestFields = nil
        spareResponseFields = nil
    }
}
