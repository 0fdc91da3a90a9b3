import Foundation

/// The process's open-file limit (RLIMIT_NOFILE). Every client connection costs partgate one descriptor and
/// every upstream connection another, so the common soft default of 1,024 caps a proxy at a few hundred
/// concurrent uploads (or slow clients) long before memory or CPU does.
enum FileDescriptorLimit {
    /// What ``raiseToHardLimit()`` found and did.
    struct Change: Equatable {
        /// The soft limit before.
        var previous: UInt64
        /// The soft limit now (the hard limit when raising worked).
        var current: UInt64
        /// The hard limit.
        var hard: UInt64
    }

    /// The soft limit now; nil when it cannot be read.
    static var current: UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit (a process may do that without privileges).
    /// - Returns: the limits before and after; nil when they could not be read.
    static func raiseToHardLimit() -> Change? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let previous = UInt64(limit.rlim_cur)
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Change(previous: previous, current: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }
}

extension ServerLog {
    /// Raises the open-file limit and logs `file descriptor limit` with the soft limit before and after.
    func raiseFileDescriptorLimit() {
        guard let change = FileDescriptorLimit.raiseToHardLimit() else {
            write(.info, "file descriptor limit: getrlimit failed; keeping the current limit")
            return
        }
        write(
            .info, "file descriptor limit",
            [("soft", .stringConvertible(change.current)), ("previous", .stringConvertible(change.previous)),
             ("hard", .stringConvertible(change.hard))])
    }
}
