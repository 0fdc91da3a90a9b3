import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension ProxyServer {
    /// The resources open on the workers' loops right now (listeners, client connections, upstream
    /// connections, pooled ones included), counted on each loop's own thread.
    ///
    /// Every client and upstream connection owns its socket, events and buffers (and, for TLS, its `SSL` object)
    /// and is registered with its loop from creation until it frees them, so a count back at its baseline after
    /// a request means nothing of that request is still held. For tests and diagnostics.
    ///
    /// - Parameter timeout: how long to wait for every loop to answer.
    /// - Returns: the sum over the workers, or nil when a loop did not answer in time (stopped or busy).
    package func openResources(timeout: Duration = .seconds(5)) -> Int? {
        sum(timeout: timeout) { $0.loop.openResources }
    }

    /// The client connections holding spares for their next exchange right now (``ClientConnection/holdsSpares``:
    /// kept by busy keep-alive connections, dropped after ``EngineSettings/idleTrimDelay`` of idleness). For tests
    /// and diagnostics; nil when a loop did not answer in time.
    package func connectionsHoldingSpares(timeout: Duration = .seconds(5)) -> Int? {
        sum(timeout: timeout) { worker in
            worker.loop.resources.count { ($0 as? ClientConnection)?.holdsSpares == true }
        }
    }

    /// `count` of each worker, run on the worker's own loop thread, added up.
    private func sum(timeout: Duration, _ count: @escaping @Sendable (Worker) -> Int) -> Int? {
        let workers = self.workers
        let tally = ResourceTally()
        let done = DispatchSemaphore(value: 0)
        for worker in workers {
            worker.loop.schedule {
                tally.add(count(worker))
                done.signal()
            }
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        for _ in workers {
            guard done.wait(timeout: deadline) == .success else { return nil }
        }
        return tally.total
    }
}

/// A sum built from several loop threads.
private final class ResourceTally: @unchecked Sendable {
    // @unchecked Sendable: `sum` is only touched while holding `mutex`.
    private var mutex = pthread_mutex_t()
    private var sum = 0

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func add(_ count: Int) {
        pthread_mutex_lock(&mutex)
        sum += count
        pthread_mutex_unlock(&mutex)
    }

    var total: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return sum
    }
}
