/// A source of bytes for one part of a ``MultipartFormData``: a file, a socket, a generator.
///
/// The form reads a stream once, when it encodes: ``open()``, then ``read(into:)`` with buffers of at most
/// ``MultipartFormData/bufferSize`` bytes until the part's declared length is reached, then one more read of
/// one byte to check that the stream ends there, then ``close()`` (also when reading failed). A stream that
/// ends early or runs long fails the encoding with `FormDataError.Code.bodyTooShort` or
/// `FormDataError.Code.bodyTooLong`: a body whose `Content-Length` is wrong is worse than none.
///
/// Streams are reference types because reading consumes them; ``FormDataInputStream`` adapts Foundation's
/// `InputStream`.
public protocol FormDataStream: AnyObject {
    /// Prepares the stream for reading; called once, before the first read. The default does nothing.
    /// - Throws: any error; the form reports it as `FormDataError.Code.readFailed`.
    func open() throws

    /// Reads up to `buffer.count` bytes into the start of `buffer`.
    /// - Parameter buffer: where to put the bytes; never larger than the form's buffer size.
    /// - Returns: how many bytes were read (at most `buffer.count`); 0 only at the end of the stream.
    /// - Throws: any error; the form reports it as `FormDataError.Code.readFailed`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Releases the stream's resources; called once after the last read, whether reading succeeded or not.
    /// The default does nothing.
    func close()
}

extension FormDataStream {
    /// Does nothing.
    public func open() throws {}

    /// Does nothing.
    public func close() {}
}
