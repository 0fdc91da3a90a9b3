import Foundation

/// A file (or standard input) read sequentially in fixed-size chunks: memory stays flat for any size.
final class InputFile {
    private let descriptor: Int32
    private let owned: Bool
    /// Bytes per read.
    static let chunkSize = 64 * 1024
    private var buffer = [UInt8](repeating: 0, count: InputFile.chunkSize)

    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Opens `path` for reading; `-` is standard input.
    init(path: String) throws {
        if path == "-" {
            descriptor = 0
            owned = false
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw OpenError(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw OpenError(path: path, reason: "is a directory")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw OpenError(path: path, reason: String(cString: strerror(errno)))
        }
        descriptor = fd
        owned = true
    }

    deinit {
        if owned { close(descriptor) }
    }

    /// Calls `body` with each chunk until the end of input or until `body` returns false.
    /// - Returns: nil at the end of input, or the read error.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Bool) -> String? {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            if count == 0 { return nil }
            let keepGoing = buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if !keepGoing { return nil }
        }
    }
}

/// Unbuffered writes to standard output or standard error.
struct StandardStream {
    let descriptor: Int32
    static let out = StandardStream(descriptor: 1)
    static let err = StandardStream(descriptor: 2)

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes UTF-8 bytes as they are.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
