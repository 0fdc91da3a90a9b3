import Foundation

/// Reads a whole regular file with POSIX calls, so failures carry the system's reason (`No such file or
/// directory`, `Permission denied`, …).
enum FileBytes {
    /// Why a file could not be read.
    struct ReadError: Error {
        /// The system's reason, e.g. `No such file or directory`.
        var reason: String
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    /// - Throws: ``ReadError`` when the file is missing, not a regular file, unreadable or larger than `limit`.
    static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; the flag does nothing to the
        // regular file the check below demands.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ReadError(reason: status.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file")
        }
        guard status.st_size <= limit else {
            throw ReadError(reason: "is larger than \(limit >> 20) MiB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw ReadError(reason: "is larger than \(limit >> 20) MiB") }
        }
    }
}
