#if canImport(Glibc)
    import Glibc
#endif

/// Milliseconds on `CLOCK_MONOTONIC_COARSE`: the kernel's tick time, read from the vDSO without touching the
/// clock source (5 ns a read here against 23 ns for `CLOCK_MONOTONIC`). Stamps of connection activity, read
/// several times per request, use it; it lags the precise clock by up to one tick (``resolution``).
enum CoarseClock {
    /// The current coarse monotonic time in milliseconds.
    @inline(__always)
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec / 1_000_000)
    }

    /// How far a reading may lag the precise clock, in milliseconds, rounded up (4 with a 250 Hz kernel).
    static let resolution: Int64 = {
        var step = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &step) == 0 else { return 10 }
        return max(1, (Int64(step.tv_sec) * 1_000_000_000 + Int64(step.tv_nsec) + 999_999) / 1_000_000)
    }()
}
