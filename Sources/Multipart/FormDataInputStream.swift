import Foundation

/// Adapts a Foundation `InputStream` to ``FormDataStream``.
///
/// Opens the stream on ``open()`` and closes it on ``close()``; a read that returns -1 throws the stream's
/// `streamError`.
public final class FormDataInputStream: FormDataStream {
    /// The adapted stream.
    public let stream: InputStream

    /// - Parameter stream: an unopened input stream.
    public init(_ stream: InputStream) {
        self.stream = stream
    }

    /// Opens the stream.
    /// - Throws: ``ReadError`` if the stream reports an error on opening.
    public func open() throws {
        stream.open()
        if stream.streamStatus == .error {
            throw ReadError(message: stream.streamError.map { String(describing: $0) } ?? "cannot open the stream")
        }
    }

    /// Reads up to `buffer.count` bytes.
    /// - Parameter buffer: where to put the bytes.
    /// - Returns: the number of bytes read, 0 at the end.
    /// - Throws: ``ReadError`` if the stream fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = stream.read(base.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count)
        guard count >= 0 else {
            throw ReadError(message: stream.streamError.map { String(describing: $0) } ?? "the stream failed")
        }
        return count
    }

    /// Closes the stream.
    public func close() {
        stream.close()
    }

    /// A failure the adapted stream reported.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The stream's error, as text.
        public var message: String

        /// The stream's error, as text.
        public var description: String { message }
    }
}
