/// The body framing and connection semantics of a response head (RFC 9112 §6.3).
///
/// In order: Content-Length with Transfer-Encoding is `content_length_with_transfer_encoding` (the
/// proxy answers 502); Transfer-Encoding in HTTP/1.0 is `transfer_encoding_http10`; both fields are
/// validated even when the status means no body. Then: 1xx is interim (no body; 101 switches
/// protocols), a response to HEAD and 204/304 have no body; a final `chunked` coding means chunked
/// (`chunked` twice or with parameters is an error); other codings mean "read until close"; then
/// Content-Length; otherwise "read until close".
public struct ResponseFraming: Hashable, Sendable {
    /// How the body is delimited.
    public var body: BodyFraming
    /// A 1xx other than 101: another response head follows for the same request.
    public var isInterim: Bool
    /// 101 Switching Protocols: the connection stops speaking HTTP/1.1 after this head.
    public var isSwitchingProtocols: Bool
    /// Whether the connection may carry another request after this response.
    public var keepAlive: Bool
    /// The lowercased Connection options (for hop-by-hop removal).
    public var connectionOptions: Set<String>
    /// The transfer codings other than a final `chunked`, in order, each as sent with its parameters (`gzip` of
    /// `gzip, chunked`; `x;p="a,b"`): a proxy that re-frames the body must still announce them, or the client reads
    /// coded bytes as the body.
    public var otherTransferCodings: [[UInt8]] = []
    /// The seconds of a `Keep-Alive: timeout=N` on a response that keeps the connection, if it has one.
    public var keepAliveTimeout: Int?

    /// Analyses a head.
    /// - Parameters:
    ///   - head: A parsed response head.
    ///   - requestMethod: The method of the request this response answers (`HEAD` means no body).
    /// - Throws: A framing ``HTTP1Error``.
    public init(analyzing head: ResponseHead, requestMethod: String) throws(HTTP1Error) {
        // The fields are read through `head` (a local copy of them counted two references and released them).
        let transferEncoding = head.fields.valueSlices(.transferEncoding)
        let contentLength = head.fields.valueSlices(.contentLength)
        guard transferEncoding.isEmpty || contentLength.isEmpty else {
            throw HTTP1Error(.contentLengthWithTransferEncoding)
        }
        guard transferEncoding.isEmpty || head.version != .http1_0 else {
            throw HTTP1Error(.transferEncodingInHTTP10)
        }
        let codings = try FieldValueList.codings(transferEncoding)
        let length = try FieldValueList.contentLength(contentLength)
        connectionOptions = try FieldValueList.connectionOptions(head.fields.valueSlices(.connection))
        isInterim = head.isInformational && head.status != 101
        isSwitchingProtocols = head.status == 101
        if head.isInformational || head.status == 204 || head.status == 304 || requestMethod == "HEAD" {
            body = .none
        } else if let last = codings.last {
            if last.name == "chunked" {
                guard codings.count(where: { $0.name == "chunked" }) == 1, !last.hasParameters else {
                    throw HTTP1Error(.invalidTransferEncoding)
                }
                body = .chunked
                otherTransferCodings = codings.dropLast().map(\.text)
            } else {
                body = .untilClose
                otherTransferCodings = codings.map(\.text)
            }
        } else if let length {
            body = .contentLength(length)
        } else {
            body = .untilClose
        }
        if body == .untilClose || isSwitchingProtocols {
            keepAlive = false
        } else if head.version == .http1_0 {
            keepAlive = connectionOptions.holdsConnectionOption("keep-alive")
                && !connectionOptions.holdsConnectionOption("close")
        } else {
            keepAlive = !connectionOptions.holdsConnectionOption("close")
        }
        if keepAlive {
            let values = head.fields.valueSlices(.keepAlive)  // located when the head was parsed: no walk
            if !values.isEmpty { keepAliveTimeout = KeepAliveTimeout.seconds(in: values) }
        }
    }
}
