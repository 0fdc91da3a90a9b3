import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An encoded form body, as ``MultipartFormData/encode(memoryThreshold:temporaryDirectory:)`` chose to hold it.
public enum EncodedFormData: Hashable, Sendable {
    /// The body in memory.
    case memory([UInt8])
    /// The body in a temporary file that the caller owns and must remove (``removeFile()``).
    case file(URL)

    /// True if the body is in memory.
    public var isInMemory: Bool {
        if case .memory = self { return true }
        return false
    }

    /// The file holding the body, if it is in one.
    public var fileURL: URL? {
        if case .file(let url) = self { return url }
        return nil
    }

    /// Removes the body's temporary file; does nothing for a body in memory or a file already gone.
    /// - Throws: ``FormDataError`` `remove_failed` with the system error.
    public func removeFile() throws(FormDataError) {
        guard case .file(let url) = self else { return }
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw FormDataError(.removeFailed, url: url, detail: FormDataFile.errorText(errno))
        }
    }
}
