/// A timeout as ``LazyTimer`` counts it, worked out once, when the settings are made.
///
/// `Duration.components` divides a 128-bit count of attoseconds (about 190 instructions per conversion), and
/// every proxied request sets several timeouts (the upstream's response timeout, the idle timeouts of the pooled
/// upstream connection and of the client connection).
struct LoopTimeout: Sendable {
    let duration: Duration
    /// The duration in whole milliseconds, rounded up (at most ten years), plus ``LazyTimer/slack``.
    let milliseconds: Int64

    /// The default response timeout, converted once.
    static let sixtySeconds = LoopTimeout(.seconds(60))

    init(_ duration: Duration) {
        self.duration = duration
        let (seconds, attoseconds) = duration.components
        var whole: Int64 = 0
        if seconds >= 0 {
            let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            whole = min(seconds, 315_360_000) * 1000 + max(0, fraction)
        }
        milliseconds = whole + LazyTimer.slack
    }
}
