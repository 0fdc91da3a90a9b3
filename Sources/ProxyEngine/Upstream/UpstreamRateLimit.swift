/// A token bucket that caps how fast an upstream connection writes: a route's `max_upstream_rate`.
///
/// The bucket is refilled at the start of every ``tickMilliseconds`` with a tenth of the rate and holds at most
/// that much, so a request body cannot go out faster than the rate over any stretch longer than a tick. It starts
/// full. A write may take more than the bucket holds (a `sendfile` chain goes whole): the bucket then goes
/// negative and the next ticks pay the debt first. Reading (the response) is not limited. Times are
/// ``CoarseClock`` milliseconds. (libevent's token bucket did this until stop 49, with the same tick and sizes.)
struct UpstreamRateLimit {
    /// The refill period, in milliseconds.
    static let tickMilliseconds: Int64 = 100
    static let ticksPerSecond: Int64 = 1000 / tickMilliseconds

    /// Bytes per second.
    let bytesPerSecond: Int64
    /// Bytes per tick: what the bucket holds at most.
    let bytesPerTick: Int
    /// Bytes that may be written now (negative: owed).
    private var tokens: Int
    /// The tick ``tokens`` was last counted in.
    private var tick: Int64

    /// - Parameters:
    ///   - bytesPerSecond: the rate (at least 1).
    ///   - now: the current ``CoarseClock`` time.
    init?(bytesPerSecond: Int64, now: Int64) {
        guard bytesPerSecond > 0 else { return nil }
        let perTick = Int(min(max(1, bytesPerSecond / Self.ticksPerSecond), Int64(Int32.max)))
        self.bytesPerSecond = bytesPerSecond
        bytesPerTick = perTick
        tokens = perTick
        tick = now / Self.tickMilliseconds
    }

    /// The bytes that may be written at `now`, after the refills of the ticks that began since the last count.
    mutating func available(now: Int64) -> Int {
        let current = now / Self.tickMilliseconds
        if current > tick {
            let ticks = Int(min(current - tick, Int64(Int32.max)))
            let (refill, overflow) = ticks.multipliedReportingOverflow(by: bytesPerTick)
            tokens = overflow ? bytesPerTick : min(bytesPerTick, tokens.addingReportingOverflow(refill).partialValue)
            tick = current
        }
        return tokens
    }

    /// Takes `bytes` written from the bucket.
    mutating func spend(_ bytes: Int) {
        tokens -= bytes
    }

    /// Milliseconds from `now` to the start of the next tick (at least 1).
    func untilNextTick(now: Int64) -> Int64 {
        max(1, (now / Self.tickMilliseconds + 1) * Self.tickMilliseconds - now)
    }
}
