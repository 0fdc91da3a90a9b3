import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file part's bytes when the form is encoded: opened on ``open()``, read with `read(2)` into the
/// form's bounded buffer, closed on ``close()`` (or when released).
final class FormDataFileSource: FormDataStream {
    private let url: URL
    private let partIndex: Int
    private let partName: String
    private var descriptor: Int32 = -1

    /// - Parameters:
    ///   - url: the file.
    ///   - partIndex: the part's index, for errors.
    ///   - partName: the part's name, for errors.
    init(url: URL, partIndex: Int, partName: String) {
        self.url = url
        self.partIndex = partIndex
        self.partName = partName
    }

    deinit {
        close()
    }

    /// Opens the file.
    /// - Throws: ``FormDataError`` (`file_unreachable` or `file_unreadable`).
    func open() throws {
        guard descriptor < 0 else { return }
        descriptor = try FormDataFile.openForReading(url, partIndex: partIndex, partName: partName)
    }

    /// Reads up to `buffer.count` bytes.
    /// - Throws: ``FormDataError`` (`read_failed`) with the system error.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = FormDataFile.read(descriptor, into: buffer)
        guard count >= 0 else {
            throw FormDataError(
                .readFailed, partIndex: partIndex, partName: partName, url: url,
                detail: FormDataFile.errorText(errno))
        }
        return count
    }

    /// Closes the file.
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }
}
