import Glibc

/// Writes PEM text to files with explicit permissions.
enum PEMFile {
    /// Permissions for certificates: owner read/write, everyone else read.
    static let publicMode: mode_t = 0o644
    /// Permissions for private keys: owner read/write only.
    static let secretMode: mode_t = 0o600

    /// Creates or replaces `path` with `text`, with permissions exactly `mode`.
    ///
    /// The permissions are set (`fchmod`) before any byte is written, so a private key never sits in a file that
    /// others can read, even when the file existed before with wider permissions.
    ///
    /// - Throws: `.file` with the path and the system's reason.
    static func write(_ text: String, to path: String, mode: mode_t) throws(TLSError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw failure("cannot create", path) }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw failure("cannot set permissions of", path) }
        var text = text
        let complete = text.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        guard complete else { throw failure("cannot write", path) }
    }

    private static func failure(_ what: String, _ path: String) -> TLSError {
        TLSError(.file, "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
