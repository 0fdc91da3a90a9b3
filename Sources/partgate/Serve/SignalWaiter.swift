import Foundation

/// Blocks SIGTERM, SIGINT and SIGHUP in every thread (call before starting worker threads, which inherit
/// the mask), then delivers them synchronously to the main thread through `sigwait`.
enum SignalWaiter {
    static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks the signals; call once, early, on the main thread.
    static func block() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for the next of the blocked signals.
    static func next() -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
