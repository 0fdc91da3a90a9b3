import CEventTLS

/// A one-shot libevent timer for a deadline that moves on every request and is rarely reached: the idle and
/// header timeouts of a client, the response and idle timeouts of an upstream connection.
///
/// Re-arming a libevent timer on each move is a heap or queue operation that touches other connections' events;
/// a proxied request used to make about seven (bufferevent timeouts are re-armed after every read and write).
/// Like nginx's lazy timers, the owner instead records activity as a time stamp and asks the timer only to fire
/// *no later than* its new deadline: when the timer is already due earlier, nothing happens. When it fires, the
/// owner compares its stamps with the clock and either acts or asks again for the deadline that remains. A
/// timer fires at most once per timeout period of an active connection.
///
/// Times are ``CoarseClock`` milliseconds; ``slack`` covers that clock's lag, so a timeout never fires before
/// its full duration has passed since the last activity (at most two clock ticks after).
struct LazyTimer {
    /// One coarse tick, added to each limit.
    static let slack = CoarseClock.resolution

    private var event: OpaquePointer?
    /// When the pending event fires (``CoarseClock`` milliseconds); `.max` when it is not pending.
    private var due = Int64.max

    /// A timer on `base` that calls `callback` with `context` (the owner, unretained).
    init(base: OpaquePointer, context: UnsafeMutableRawPointer, callback: event_callback_fn) {
        event = event_new(base, -1, 0, callback, context)
    }

    /// Whether the timer exists (the event could be made) and was not freed.
    var isLive: Bool { event != nil }

    /// Makes the timer fire at `deadline` or before: re-arms it only if it is not pending or due later.
    @inline(__always)
    mutating func fire(by deadline: Int64, now: Int64) {
        guard deadline < due, let event else { return }
        let wait = max(0, deadline &- now)
        var time = timeval(tv_sec: Int(wait / 1000), tv_usec: Int(wait % 1000) * 1000)
        _ = event_add(event, &time)
        due = deadline
    }

    /// Call first thing in the callback: the event is no longer pending.
    mutating func fired() {
        due = .max
    }

    /// Frees the event (it never fires after this).
    mutating func free() {
        if let event { event_free(event) }
        event = nil
        due = .max
    }
}
