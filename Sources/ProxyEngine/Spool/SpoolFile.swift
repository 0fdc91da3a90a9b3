import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// The temp file of a spooled body: created in a directory with `mkostemp` (mode 0600, close-on-exec) and
/// unlinked at once, so it has no name before its first byte is written; its data goes with the descriptor,
/// which this object owns and closes in ``close()`` (or `deinit`).
final class SpoolFile {
    /// The open descriptor; -1 once closed.
    private(set) var descriptor: Int32

    /// - Parameter directory: where the file is created.
    /// - Throws: ``SpoolError`` (`create`) when the file cannot be created or unlinked.
    init(directory: String) throws(SpoolError) {
        var template = Array((directory + "/partgate-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { cshim_mkostemp_cloexec($0.baseAddress!) }
        guard descriptor >= 0 else { throw SpoolError(.create, errno) }
        guard unlink(template) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw SpoolError(.create, code)
        }
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Appends every byte of `buffer` (an evbuffer) to the file and drains them from it.
    /// - Throws: ``SpoolError`` (`write`), e.g. when the disk is full.
    func append(draining buffer: OpaquePointer) throws(SpoolError) {
        while EvBuffer.length(buffer) > 0 {
            let written = evbuffer_write(buffer, descriptor)
            if written <= 0 { throw SpoolError(.write, written < 0 ? errno : ENOSPC) }
        }
    }

    /// Reads up to `into.count` bytes at `offset`; returns how many were read.
    /// - Throws: ``SpoolError`` (`read`) on an error or an unexpected end of file.
    func read(into bytes: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SpoolError) -> Int {
        while true {
            let count = pread(descriptor, bytes.baseAddress, bytes.count, off_t(offset))
            if count > 0 { return count }
            if count < 0, errno == EINTR { continue }
            throw SpoolError(.read, count < 0 ? errno : EIO)
        }
    }

    /// Closes the descriptor (the unlinked file is then gone).
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }
}
