#if canImport(Glibc)
import Glibc
#endif

/// A timeout with its libevent `timeval` worked out once, when the settings are made.
///
/// `Duration.components` divides a 128-bit count of attoseconds (about 190 instructions per conversion), and
/// every proxied request sets five timeouts (the upstream's response timeout on three of them, the idle timeouts
/// of the pooled upstream connection and of the client connection on the others).
struct LoopTimeout: Sendable {
    let duration: Duration
    let time: timeval

    /// The default response timeout, converted once.
    static let sixtySeconds = LoopTimeout(.seconds(60))

    init(_ duration: Duration) {
        self.duration = duration
        time = timeval(duration)
    }
}
