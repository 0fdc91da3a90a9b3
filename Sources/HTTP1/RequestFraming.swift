/// The body framing and connection semantics of a request head (RFC 9112 §6, §9; RFC 9110 §7.6, §10.1.1).
///
/// Rules (stricter than RFC 9112 where it permits a choice, as nginx and HAProxy are):
/// - Transfer-Encoding in HTTP/1.0: `transfer_encoding_http10`.
/// - Content-Length with Transfer-Encoding: `content_length_with_transfer_encoding`.
/// - Transfer-Encoding must be exactly `chunked` (any case): `chunked` not last, twice, with
///   parameters, or an empty element is `invalid_transfer_encoding` (400); any other coding, even
///   `gzip, chunked`, is `unsupported_transfer_coding` (501), as nginx answers.
/// - Content-Length must be one field line of `1*DIGIT` (leading zeros allowed, as RFC 9110 §8.6
///   permits); duplicates are refused even when identical.
/// - Connection options must be tokens, and may not name Host, Content-Length or Content-Type.
/// - Expect: `100-continue` (any case) is honoured in HTTP/1.1 and ignored in HTTP/1.0 (RFC 9110
///   §10.1.1); any other expectation is `unknown_expectation` (417).
///
/// Host and Content-Type rules are separate checks: ``RequestHead/validatedHost()`` and
/// ``RequestHead/singleContentType()``.
public struct RequestFraming: Hashable, Sendable {
    /// How the body is delimited: `.none`, `.contentLength` or `.chunked` (never `.untilClose`).
    public var body: BodyFraming
    /// Whether the client may send another request on this connection after this one.
    public var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    public var expectsContinue: Bool
    /// Whether the client asked to switch protocols (`Connection: upgrade` and an Upgrade field).
    /// partgate ignores such requests' upgrade (RFC 9110 §7.8 allows it) and strips both fields.
    public var isUpgradeRequest: Bool
    /// The lowercased Connection options (for hop-by-hop removal).
    public var connectionOptions: Set<String>

    /// Field names a Connection option may not name: they describe the message, not the hop.
    public static let protectedFieldNames: Set<String> = ["host", "content-length", "content-type"]

    /// Analyses a head.
    /// - Parameter head: A parsed request head.
    /// - Throws: A framing or connection-semantics ``HTTP1Error``.
    public init(analyzing head: RequestHead) throws(HTTP1Error) {
        // The fields are read through `head` (a local copy of them counted two references and released them).
        let transferEncoding = head.fields.valueSlices(.transferEncoding)
        let contentLength = head.fields.valueSlices(.contentLength)
        if !transferEncoding.isEmpty {
            guard head.version != .http1_0 else {
                throw HTTP1Error(.transferEncodingInHTTP10)
            }
            guard contentLength.isEmpty else {
                throw HTTP1Error(.contentLengthWithTransferEncoding)
            }
            try RequestFraming.checkChunkedOnly(FieldValueList.codings(transferEncoding))
            body = .chunked
        } else if let length = try FieldValueList.contentLength(contentLength) {
            body = .contentLength(length)
        } else {
            body = .none
        }
        connectionOptions = try FieldValueList.connectionOptions(head.fields.valueSlices(.connection))
        guard connectionOptions.isEmpty || connectionOptions.isDisjoint(with: RequestFraming.protectedFieldNames) else {
            throw HTTP1Error(.connectionNamesProtectedField)
        }
        if head.version == .http1_0 {
            keepAlive = connectionOptions.holdsConnectionOption("keep-alive")
                && !connectionOptions.holdsConnectionOption("close")
        } else {
            keepAlive = !connectionOptions.holdsConnectionOption("close")
        }
        isUpgradeRequest = connectionOptions.holdsConnectionOption("upgrade") && head.fields.contains(.upgrade)
        expectsContinue = false
        for element in FieldValueList.elements(head.fields.valueSlices(.expect)) where !element.isEmpty {
            guard FieldValueList.lowercased(element) == "100-continue" else {
                throw HTTP1Error(.unknownExpectation)
            }
            expectsContinue = head.version == .http1_1
        }
    }

    /// Accepts exactly one `chunked` coding.
    private static func checkChunkedOnly(_ codings: [FieldValueList.Coding]) throws(HTTP1Error) {
        let chunkedCount = codings.count { $0.name == "chunked" }
        guard let last = codings.last, last.name == "chunked" else {
            throw HTTP1Error(chunkedCount > 0 ? .invalidTransferEncoding : .unsupportedTransferCoding)
        }
        guard chunkedCount == 1, !last.hasParameters else {
            throw HTTP1Error(.invalidTransferEncoding)
        }
        guard codings.count == 1 else {
            throw HTTP1Error(.unsupportedTransferCoding)
        }
    }
}
