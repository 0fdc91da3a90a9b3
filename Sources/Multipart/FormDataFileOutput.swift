import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An encoding written to a new file.
///
/// The file is created with `O_CREAT | O_EXCL`, so an existing file is never overwritten (nor followed
/// through a symlink), and any file this type removes is one it created. Each write goes straight to
/// `write(2)`: the output holds no buffer of its own.
struct FormDataFileOutput: FormDataOutput {
    /// The file being written.
    let url: URL
    private var descriptor: Int32
    /// Bytes written so far.
    private(set) var count: Int64 = 0

    /// Creates the file.
    /// - Parameters:
    ///   - url: a `file:` URL where nothing exists yet.
    ///   - permissions: the new file's mode before the umask (0o600 for temporary files).
    /// - Throws: ``FormDataError`` `output_not_file_url`, `output_file_exists` or `output_creation_failed`.
    init(creating url: URL, permissions: mode_t) throws(FormDataError) {
        guard url.isFileURL else { throw FormDataError(.outputNotFileURL, url: url) }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            let error = errno
            throw FormDataError(
                error == EEXIST ? .outputFileExists : .outputCreationFailed, url: url,
                detail: FormDataFile.errorText(error))
        }
        self.url = url
        self.descriptor = descriptor
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(FormDataError) {
        precondition(descriptor >= 0, "FormDataFileOutput: write after finish")
        let error = FormDataFile.writeAll(descriptor, bytes)
        guard error == 0 else {
            throw FormDataError(.writeFailed, url: url, detail: FormDataFile.errorText(error))
        }
        count += Int64(bytes.count)
    }

    /// Closes the file, keeping it.
    /// - Throws: ``FormDataError`` `write_failed` if `close(2)` reports a deferred write error.
    mutating func finish() throws(FormDataError) {
        let result = closeDescriptor()
        guard result == 0 else {
            throw FormDataError(.writeFailed, url: url, detail: FormDataFile.errorText(result))
        }
    }

    /// Closes the file if it is open and removes it: the encoding failed, and a partial body must not remain.
    mutating func discard() {
        _ = closeDescriptor()
        _ = unlink(url.path)
    }

    /// Closes the descriptor once; returns 0 or the `errno` of a failed close.
    private mutating func closeDescriptor() -> Int32 {
        guard descriptor >= 0 else { return 0 }
        #if canImport(Glibc)
            let result = Glibc.close(descriptor)
        #elseif canImport(Musl)
            let result = Musl.close(descriptor)
        #else
            let result = Darwin.close(descriptor)
        #endif
        descriptor = -1
        return result == 0 ? 0 : errno
    }
}
