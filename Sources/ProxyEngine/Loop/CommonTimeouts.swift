import CEventTLS

/// An event base's common timeouts: libevent's queues of events that share one duration.
///
/// An event added with a plain `timeval` goes into the base's min-heap, and re-arming it (which libevent's
/// bufferevents do after every read and write) sifts through the heap entries of other connections' events. An
/// event added with the `timeval` that `event_base_init_common_timeout` returns for its duration is appended to
/// that duration's queue instead, in constant time: events of one duration expire in the order they were armed,
/// and only each queue's head sits in the heap. partgate's timeouts come from a handful of settings (header,
/// idle, response, pool idle), so each worker's base has a handful of queues.
///
/// The returned `timeval` carries the queue's index in its microseconds field; it is valid only for the base
/// it was made for, and only as an argument to `event_add` or `bufferevent_set_timeouts` there.
struct CommonTimeouts {
    /// libevent allows 256 common timeouts per base; past this many distinct durations (settings reloaded over
    /// and over with new values), timeouts go to the heap as plain `timeval`s.
    static let limit = 32

    private var known: [(plain: timeval, common: timeval)] = []

    /// The common-timeout form of `timeout` on `base` (made on first use), or its plain `timeval` when it is
    /// zero or the table is full.
    mutating func time(for timeout: LoopTimeout, base: OpaquePointer) -> timeval {
        let plain = timeout.time
        for entry in known where entry.plain.tv_sec == plain.tv_sec && entry.plain.tv_usec == plain.tv_usec {
            return entry.common
        }
        guard plain.tv_sec > 0 || plain.tv_usec > 0, known.count < Self.limit else { return plain }
        var value = plain
        guard let common = event_base_init_common_timeout(base, &value) else { return plain }
        known.append((plain, common.pointee))
        return common.pointee
    }
}
