#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC (a vDSO call, no syscall): start and end stamps of durations.
enum MonotonicClock {
    /// The current monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Nanoseconds since `start` (0 if the clock read earlier, which CLOCK_MONOTONIC never does).
    @inline(__always)
    static func elapsed(since start: UInt64) -> Int64 {
        let now = now()
        return now > start ? Int64(now - start) : 0
    }
}
