// HTTP1: strict HTTP/1.1 message-head parsing and chunked framing (RFC 9112).
//
// Pure Swift: this module imports neither Foundation nor libevent/OpenSSL, so every parser here is
// tested without I/O, fed whole, byte by byte and split at every offset.
//
// How the proxy engine uses it, per client connection (spans are `evbuffer_peek` iovecs):
//
//   RequestHeadParser.feed(span)          -> .needMore | .complete(head, consumed:) | .error
//   RequestFraming(analyzing: head)       -> body framing, keep-alive, Expect, Upgrade  (throws)
//   head.validatedHost(), head.singleContentType()                                    (throw)
//   BodyDecoder(framing: framing.body).decode(span)
//                                         -> .data(range) | .needMore | .end(consumed:) | .error
//   head.serialized(target:removing: FieldNameSet(head.hopByHopFieldNames), adding: [...])  -> upstream head
//   ChunkedEncoder.sizeLine(for:), .dataTerminator, .lastChunk                -> upstream body
//
// and per upstream response: ResponseHeadParser, ResponseFraming(analyzing:requestMethod:),
// BodyDecoder. Every error is an HTTP1Error with a stable snake_case code name and a suggested status.

/// Namespace for constants shared by the HTTP/1.1 codecs.
public enum HTTP1 {
    /// CR LF, the only line terminator this module accepts.
    public static let crlf: [UInt8] = [13, 10]
}
