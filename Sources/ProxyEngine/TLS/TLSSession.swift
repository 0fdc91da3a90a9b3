import CEventTLS

/// A resumable TLS session (TLS 1.2 session id or ticket, or a TLS 1.3 ticket) kept by a client.
///
/// Owns one reference to an `SSL_SESSION`, released in `deinit`; `SSL_set_session` takes its own reference.
///
/// `@unchecked Sendable`: a session is only read after it has been cached (`SSL_set_session` up-refs it; the
/// handshake copies a session before changing anything), and its reference count is atomic, so a session
/// learned on one worker thread may be offered by another.
final class TLSSession: @unchecked Sendable {
    let session: OpaquePointer

    /// Takes ownership of one reference to `session`.
    init(adopting session: OpaquePointer) {
        self.session = session
    }

    deinit {
        SSL_SESSION_free(session)
    }

    /// Whether the session can still be offered at `now` (seconds since the epoch): resumable, and younger than both
    /// this client's session timeout and the ticket lifetime the server announced (if it announced one).
    func isUsable(at now: Int) -> Bool {
        guard SSL_SESSION_is_resumable(session) == 1 else { return false }
        var lifetime = SSL_SESSION_get_timeout(session)
        let hint = SSL_SESSION_get_ticket_lifetime_hint(session)
        if hint > 0 { lifetime = min(lifetime, Int(clamping: hint)) }
        return now < SSL_SESSION_get_time(session) + lifetime
    }
}
