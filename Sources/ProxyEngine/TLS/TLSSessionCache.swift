import CEventTLS
import Glibc
import Synchronization

/// The most recent resumable session per server name, for one ``TLSClientContext``.
///
/// Thread-safe (a `Mutex` around a small dictionary): a client context is shared by every worker thread, each
/// running its own event loop, and a session learned on one worker can be resumed on another. The lock is held only
/// for a dictionary access per handshake, next to which the handshake's own cost is large.
///
/// Sessions never cross contexts: a session skips certificate verification when resumed, so it may only be offered
/// under the same trust settings and for the same server name it was verified for.
final class TLSSessionCache: Sendable {
    private struct Entry {
        let session: TLSSession
        let stamp: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var nextStamp: UInt64 = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// - Parameter capacity: the most server names kept; the oldest entry goes when a new name arrives.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Keeps `session` as the newest for `key`, if it can be resumed at all.
    ///
    /// - Returns: whether it was kept (if not, the caller still owns its reference).
    func store(_ session: OpaquePointer, for key: String) -> Bool {
        guard SSL_SESSION_is_resumable(session) == 1 else { return false }
        let entry = TLSSession(adopting: session)
        state.withLock { state in
            if state.entries[key] == nil, state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.stamp < $1.value.stamp })?.key
            {
                state.entries[oldest] = nil
            }
            state.entries[key] = Entry(session: entry, stamp: state.nextStamp)
            state.nextStamp += 1
        }
        return true
    }

    /// Offers the cached session for `key` to `ssl` (before its handshake); drops it instead if it expired.
    ///
    /// - Returns: whether a session was offered.
    @discardableResult
    func offer(for key: String, to ssl: OpaquePointer) -> Bool {
        let now = time(nil)
        return state.withLock { state in
            guard let entry = state.entries[key] else { return false }
            guard entry.session.isUsable(at: now) else {
                state.entries[key] = nil
                return false
            }
            return SSL_set_session(ssl, entry.session.session) == 1
        }
    }

    /// Drops the session for `key`, e.g. after its server refused a handshake.
    func remove(_ key: String) {
        state.withLock { state in state.entries[key] = nil }
    }

    /// Whether a session is cached for `key`.
    func contains(_ key: String) -> Bool {
        state.withLock { state in state.entries[key] != nil }
    }

    /// How many server names have a cached session.
    var count: Int {
        state.withLock { state in state.entries.count }
    }
}
