import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks a file part passes when it is appended, and the POSIX calls behind file parts and output files.
///
/// Checks run in this order, each with its own error code: a `file:` URL (`FormDataError.Code.notFileURL`),
/// `stat` succeeds (`FormDataError.Code.fileUnreachable`), not a directory
/// (`FormDataError.Code.fileIsDirectory`), a regular file whose size is meaningful
/// (`FormDataError.Code.fileSizeUnavailable`), and it opens for reading
/// (`FormDataError.Code.fileUnreadable`; the descriptor is closed at once and the file is opened
/// again when the form is encoded).
enum FormDataFile {
    /// Checks `url` for use as a part body.
    /// - Parameters:
    ///   - url: the file.
    ///   - partIndex: the index the part would have.
    ///   - partName: the part's name.
    /// - Returns: the file's size in bytes.
    /// - Throws: ``FormDataError`` with the first check that failed.
    static func checkedSize(of url: URL, partIndex: Int, partName: String) throws(FormDataError) -> UInt64 {
        func failure(_ code: FormDataError.Code, _ detail: String? = nil) -> FormDataError {
            FormDataError(code, partIndex: partIndex, partName: partName, url: url, detail: detail)
        }
        guard url.isFileURL else { throw failure(.notFileURL) }
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(.fileUnreachable, errorText(errno)) }
        let type = info.st_mode & S_IFMT
        guard type != S_IFDIR else { throw failure(.fileIsDirectory) }
        guard type == S_IFREG, info.st_size >= 0 else {
            throw failure(.fileSizeUnavailable, "not a regular file (mode \(String(info.st_mode, radix: 8)))")
        }
        // O_NONBLOCK: should the path have been swapped for a FIFO since stat, the probe must not hang.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(.fileUnreadable, errorText(errno)) }
        _ = close(descriptor)
        return UInt64(info.st_size)
    }

    /// Opens `url` for reading at encode time.
    /// - Returns: the descriptor.
    /// - Throws: `FormDataError.Code.fileUnreachable` if the file is gone,
    ///   `FormDataError.Code.fileUnreadable` for any other failure.
    static func openForReading(_ url: URL, partIndex: Int, partName: String) throws(FormDataError) -> Int32 {
        // O_NONBLOCK: a path swapped for a FIFO since the append reads as empty (body_too_short), not a hang.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            let code: FormDataError.Code = error == ENOENT || error == ENOTDIR ? .fileUnreachable : .fileUnreadable
            throw FormDataError(code, partIndex: partIndex, partName: partName, url: url, detail: errorText(error))
        }
        return descriptor
    }

    /// `read(2)` retried on EINTR.
    /// - Returns: the byte count, 0 at end of file, or -1 with `errno` set.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 || errno != EINTR { return count }
        }
    }

    /// Writes all of `bytes` with `write(2)`, retrying on EINTR and after short writes.
    /// - Returns: 0 on success, otherwise the `errno` of the failed call.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var base = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let count = systemWrite(descriptor, base, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            guard count > 0 else { return EIO }
            base += count
            remaining -= count
        }
        return 0
    }

    /// The text of an `errno` value: `No such file or directory (errno 2)`.
    static func errorText(_ error: Int32) -> String {
        "\(String(cString: strerror(error))) (errno \(error))"
    }

    private static func systemRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.read(descriptor, base, count)
        #elseif canImport(Musl)
            return Musl.read(descriptor, base, count)
        #else
            return Darwin.read(descriptor, base, count)
        #endif
    }

    private static func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(descriptor, base, count)
        #elseif canImport(Musl)
            return Musl.write(descriptor, base, count)
        #else
            return Darwin.write(descriptor, base, count)
        #endif
    }
}
