import Glibc

/// Writes PEM text to files with explicit permissions.
enum PEMFile {
    /// Permissions for certificates: owner read/write, everyone else read.
    static let publicMode: mode_t = 0o644
    /// Permissions for private keys: owner read/write only.
    static let secretMode: mode_t = 0o600

    /// Creates or replaces `path` with `text`, with permissions exactly `mode`.
    ///
    /// The text goes into a new temporary file beside `path` (created 0600 by `mkstemp`, then set to `mode`),
    /// which is renamed over `path` once complete. So a reader never sees a half-written file, and a key never
    /// lands in an existing file that others can read (or already hold open).
    ///
    /// - Throws: `.file` with the path and the system's reason.
    static func write(_ text: String, to path: String, mode: mode_t) throws(TLSError) {
        var template = Array((path + ".partgate-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw failure("cannot create a file beside", path) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let written = fchmod(fd, mode) == 0 && writeAll(text, to: fd)
        let closed = close(fd) == 0
        guard written, closed else { throw failure("cannot write", temporary) }
        guard rename(temporary, path) == 0 else { throw failure("cannot replace", path) }
        renamed = true
    }

    private static func writeAll(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes -> Bool in
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
    }

    private static func failure(_ what: String, _ path: String) -> TLSError {
        TLSError(.file, "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
