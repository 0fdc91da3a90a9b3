import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// The access lines of one worker, written together: lines made during the loop's current callbacks go out
/// in one `write` once those callbacks end (an event made active, as for client writes), not one `write`
/// each. Like nginx's `access_log … buffer=` without its delay: no line waits past the loop turn that made it.
///
/// Used only on the worker's loop thread. The buffer is bounded: a batch that reaches ``limit`` is written at
/// once.
final class AccessLineBatch {
    /// Bytes after which the batch is written without waiting for the end of the loop turn.
    static let limit = 64 * 1024

    private let descriptor: Int32
    private var bytes: [UInt8] = []
    private var event: OpaquePointer?
    private var scheduled = false

    /// - Parameters:
    ///   - base: the worker's event base.
    ///   - descriptor: where lines go (standard output).
    init(base: OpaquePointer, descriptor: Int32) {
        self.descriptor = descriptor
        let context = Unmanaged.passUnretained(self).toOpaque()
        event = event_new(base, -1, 0, { _, _, context in
            Unmanaged<AccessLineBatch>.fromOpaque(context!).takeUnretainedValue().flush()
        }, context)
    }

    /// Appends one line through `write` and makes sure the batch goes out when the current callbacks end.
    func append(_ write: (inout [UInt8]) -> Void) {
        write(&bytes)
        if bytes.count >= Self.limit {
            flush()
        } else if !scheduled, let event {
            scheduled = true
            event_active(event, 0, 0)
        }
    }

    /// Bytes waiting to be written.
    var pending: Int { bytes.count }

    /// Writes the batch (whole, retrying after EINTR and short writes; a failing descriptor drops it, as an
    /// unbuffered log line would be dropped).
    func flush() {
        scheduled = false
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: bytes.capacity <= Self.limit)
    }

    /// Writes what is left and frees the event (the loop stopped).
    func close() {
        flush()
        if let event {
            event_free(event)
            self.event = nil
        }
    }

    deinit {
        close()
    }
}
