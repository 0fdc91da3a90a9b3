#if canImport(Glibc)
import Glibc
#endif

/// A pthread that runs one closure (an event loop), joined by ``join()``.
public final class LoopThread: @unchecked Sendable {
    // @unchecked Sendable: `thread` is written once by start() before any other thread can see it.
    private var thread = pthread_t()
    private var started = false

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        started = true
    }

    /// Waits for the thread to finish.
    public func join() {
        guard started else { return }
        started = false
        pthread_join(thread, nil)
    }
}
