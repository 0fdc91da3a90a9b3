#if canImport(Glibc)
import Glibc
#endif

/// A call from another thread into a loop that waits for its result: the closure runs on the loop thread
/// (``EventLoop/schedule(_:)``) and the caller blocks on a condition variable, at most `timeout`.
final class LoopCall<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written by the loop thread and read by the caller, both holding `mutex`.
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var result: Result<Value, any Error>?

    init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func complete(_ value: Result<Value, any Error>) {
        pthread_mutex_lock(&mutex)
        result = value
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// The result, or nil when `timeout` passed first.
    func wait(timeout: Duration) -> Result<Value, any Error>? {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        var nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while result == nil {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { break }
        }
        return result
    }
}

extension EventLoop {
    /// Runs `work` on the loop thread and waits for it (call from another thread, never from the loop's own).
    /// - Parameter timeout: how long to wait for the loop to run it.
    /// - Throws: what `work` throws, or ``LoopCallTimeout`` when the loop did not run it in time (it may
    ///   still run later).
    func perform<Value: Sendable>(timeout: Duration = .seconds(10), _ work: @escaping @Sendable () throws -> Value)
        throws -> Value
    {
        let call = LoopCall<Value>()
        schedule {
            call.complete(Result { try work() })
        }
        guard let result = call.wait(timeout: timeout) else { throw LoopCallTimeout() }
        return try result.get()
    }
}

/// A loop did not run a ``EventLoop/perform(timeout:_:)`` call in time (it is stopped or stuck).
struct LoopCallTimeout: Error, CustomStringConvertible {
    var description: String { "a worker did not answer in time" }
}
