#if canImport(Glibc)
import Glibc
#endif

/// Closures handed to a loop from other threads, behind a mutex.
final class PendingWork: @unchecked Sendable {
    // @unchecked Sendable: every access to `items` holds `mutex`.
    private var mutex = pthread_mutex_t()
    private var items: [@Sendable () -> Void] = []

    init() {
        pthread_mutex_init(&mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
    }

    func append(_ work: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(&mutex)
        items.append(work)
        pthread_mutex_unlock(&mutex)
    }

    func takeAll() -> [@Sendable () -> Void] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let taken = items
        items.removeAll()
        return taken
    }
}
