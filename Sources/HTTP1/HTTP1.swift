// HTTP1: strict HTTP/1.1 message-head parsing and chunked framing (RFC 9112).
//
// Pure Swift: this module imports neither Foundation nor libevent/OpenSSL, so every parser here is
// tested without I/O, fed whole, byte by byte and split at every offset.

/// Namespace for constants shared by the HTTP/1.1 codecs.
public enum HTTP1 {
    /// CR LF, the only line terminator this module accepts.
    public static let crlf: [UInt8] = [13, 10]
}
