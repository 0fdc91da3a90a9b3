/// The framing pieces of the chunked transfer coding, for sending a body whose length is unknown.
///
/// Per chunk the engine writes ``sizeLine(for:)``, moves the data itself (no copy), then
/// ``dataTerminator``; at the end it writes ``lastChunk`` (no trailers). No string formatting.
public enum ChunkedEncoder {
    /// `CRLF`, written after each chunk's data.
    public static let dataTerminator: [UInt8] = [ByteClass.cr, ByteClass.lf]

    /// `0 CRLF CRLF`: the last chunk and an empty trailer section.
    public static let lastChunk: [UInt8] = [0x30, ByteClass.cr, ByteClass.lf, ByteClass.cr, ByteClass.lf]

    /// The `<hex> CRLF` line for a chunk of `count` bytes (inline storage, no allocation).
    /// - Parameter count: The chunk's data length, greater than zero.
    public static func sizeLine(for count: Int) -> ChunkSizeLine {
        ChunkSizeLine(size: count)
    }

    /// Appends the size line for a chunk of `count` bytes.
    /// - Parameters:
    ///   - count: The chunk's data length, greater than zero.
    ///   - buffer: The buffer to append to.
    public static func appendSizeLine(for count: Int, to buffer: inout [UInt8]) {
        ChunkSizeLine(size: count).withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    /// Appends one whole chunk (size line, data, CRLF); nothing for empty data.
    /// - Parameters:
    ///   - data: The chunk's data.
    ///   - buffer: The buffer to append to.
    public static func appendChunk(_ data: some Collection<UInt8>, to buffer: inout [UInt8]) {
        guard !data.isEmpty else {
            return
        }
        appendSizeLine(for: data.count, to: &buffer)
        buffer.append(contentsOf: data)
        buffer.append(contentsOf: dataTerminator)
    }
}
