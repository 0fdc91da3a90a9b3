import CEventTLS

/// Owns one libevent token bucket configuration (`ev_token_bucket_cfg`) that caps how fast an upstream
/// connection writes: a route's `max_upstream_rate`.
///
/// The bucket is refilled every ``tick`` with a tenth of the rate and holds at most that much, so a request
/// body cannot go out faster than the rate over any stretch longer than a tick. Reading (the response) is
/// not limited. libevent keeps a pointer to the configuration, so it must outlive its use:
/// ``UpstreamConnection`` detaches it (`bufferevent_set_rate_limit(bev, NULL)`) before releasing it.
final class UpstreamRateLimit {
    /// The refill period.
    static let tick = Duration.milliseconds(100)
    static let ticksPerSecond: Int64 = 10

    /// Bytes per second.
    let bytesPerSecond: Int64
    /// Bytes per tick: what the bucket holds at most.
    let bytesPerTick: Int
    let configuration: OpaquePointer

    /// - Parameter bytesPerSecond: the rate (at least 1).
    init?(bytesPerSecond: Int64) {
        guard bytesPerSecond > 0 else { return nil }
        // With a bucket, libevent takes a read's or write's size from the bucket instead of max_single_read/write,
        // and the OpenSSL bufferevent holds it in an `int`: both sides stay within Int32 (a larger read size
        // wraps negative there, and the TLS upstream never reads its response).
        let perTick = Int(min(max(1, bytesPerSecond / Self.ticksPerSecond), Int64(Int32.max)))
        var tick = timeval(Self.tick)
        // Reading is left unlimited in practice: 2 GiB per tick.
        let unlimited = Int(Int32.max)
        guard let configuration = ev_token_bucket_cfg_new(unlimited, unlimited, perTick, perTick, &tick) else {
            return nil
        }
        self.bytesPerSecond = bytesPerSecond
        self.bytesPerTick = perTick
        self.configuration = configuration
    }

    deinit {
        ev_token_bucket_cfg_free(configuration)
    }
}
