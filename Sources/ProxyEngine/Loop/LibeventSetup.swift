import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// One-time process setup for libevent and OpenSSL: pthread locking for libevent's process-wide state (P11:
/// before the first `event_base_new`; the bases themselves are made without a lock, see ``EventLoop``), OpenSSL
/// initialisation, and SIGPIPE ignored (P12: writev and SSL_write on a closed
/// socket must return EPIPE, not kill the process).
enum LibeventSetup {
    static let once: Void = {
        _ = evthread_use_pthreads()
        _ = OPENSSL_init_ssl(0, nil)
        signal(SIGPIPE, SIG_IGN)
        // Input chains are up to 256 KiB (PlainSocket) and are freed once consumed. Above glibc's default
        // mmap threshold (128 KiB) each one would be mmapped and unmapped, and every read would fault in
        // fresh pages (seen as one madvise per 512 KiB in strace and ~40% more CPU per GiB). Keep such
        // buffers in the heap for reuse; memory stays bounded by the watermarks.
        _ = cshim_set_malloc_thresholds(4 << 20, 16 << 20)
    }()

    /// Runs the setup if it has not run yet.
    static func ensure() {
        _ = once
    }
}

/// `EV_READ` and friends are `Int32` in Swift; libevent's enable/disable/watermark calls take `short` (P3).
@inline(__always)
func ev(_ flags: Int32) -> Int16 {
    Int16(truncatingIfNeeded: flags)
}
