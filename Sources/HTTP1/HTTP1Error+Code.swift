extension HTTP1Error {
    /// A stable, named reason for an ``HTTP1Error``.
    ///
    /// Each code has a snake_case ``name`` that never changes once published (logs, metrics and
    /// problem+json bodies use it), a one-line ``summary``, and the status a server should answer a
    /// *request* with (``suggestedStatus``). New codes may be added; existing names are never reused.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The stable snake_case name, for example `"obs_fold"`.
        public var name: String { base.rawValue }

        /// `name`.
        public var description: String { base.rawValue }

        /// Every code, in declaration order (for documentation and tests).
        public static var allCodes: [Code] { Base.allCases.map(Code.init) }

        // MARK: Line structure

        /// A CR not followed by LF. RFC 9112 §2.2.
        public static let bareCR = Code(.bareCR)
        /// An LF not preceded by CR (this module accepts CRLF only). RFC 9112 §2.2.
        public static let bareLF = Code(.bareLF)

        // MARK: Start line

        /// The request line is not `method SP request-target SP HTTP-version CRLF`. RFC 9112 §3.
        public static let invalidRequestLine = Code(.invalidRequestLine)
        /// The method is empty or holds a byte that is not a tchar. RFC 9110 §9.1.
        public static let invalidMethod = Code(.invalidMethod)
        /// The method is a valid token but not one this parser is configured to accept (501).
        public static let unknownMethod = Code(.unknownMethod)
        /// The request-target holds a byte outside visible ASCII, a `#`, a `\` in the path, or a
        /// malformed percent-encoding; or an absolute-form target is not a valid http(s) URI.
        public static let invalidTarget = Code(.invalidTarget)
        /// The request-target form does not fit the method (asterisk-form other than OPTIONS,
        /// authority-form other than CONNECT, CONNECT without authority-form). RFC 9112 §3.2.
        public static let invalidTargetForm = Code(.invalidTargetForm)
        /// An absolute-form or authority-form target carries `userinfo@`. RFC 9110 §4.2.4.
        public static let userinfoInTarget = Code(.userinfoInTarget)
        /// The HTTP-version is not `HTTP/` DIGIT `.` DIGIT. RFC 9112 §2.3.
        public static let invalidVersion = Code(.invalidVersion)
        /// A well-formed HTTP-version other than HTTP/1.0 or HTTP/1.1 (505).
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The status line is not `HTTP-version SP 3DIGIT [SP reason-phrase] CRLF`. RFC 9112 §4.
        public static let invalidStatusLine = Code(.invalidStatusLine)
        /// The status code is not three digits in 100...599. RFC 9110 §15.
        public static let invalidStatusCode = Code(.invalidStatusCode)

        // MARK: Field lines

        /// Whitespace at the start of the first field line. RFC 9112 §2.2.
        public static let whitespaceAfterStartLine = Code(.whitespaceAfterStartLine)
        /// A field line starting with SP or HTAB (line folding). RFC 9112 §5.2.
        public static let obsFold = Code(.obsFold)
        /// A field line starting with `:`. RFC 9110 §5.1.
        public static let emptyFieldName = Code(.emptyFieldName)
        /// A field name byte that is not a tchar. RFC 9110 §5.1.
        public static let invalidFieldName = Code(.invalidFieldName)
        /// Whitespace between the field name and the colon. RFC 9112 §5.1.
        public static let whitespaceBeforeColon = Code(.whitespaceBeforeColon)
        /// A field line that ends before its colon.
        public static let missingColon = Code(.missingColon)
        /// A control character (other than HTAB) or DEL in a field value. RFC 9110 §5.5.
        public static let invalidFieldValue = Code(.invalidFieldValue)

        // MARK: Limits

        /// The head is larger than `HeadLimits.maxHeadBytes` (431).
        public static let headTooLarge = Code(.headTooLarge)
        /// More field lines than `HeadLimits.maxFieldCount` (431).
        public static let tooManyFields = Code(.tooManyFields)
        /// The request line is longer than `HeadLimits.maxStartLineBytes` (414).
        public static let requestLineTooLong = Code(.requestLineTooLong)
        /// The status line is longer than `HeadLimits.maxStartLineBytes` (upstream error: 502).
        public static let statusLineTooLong = Code(.statusLineTooLong)
        /// A field line is longer than `HeadLimits.maxFieldLineBytes` (431).
        public static let fieldLineTooLong = Code(.fieldLineTooLong)
        /// The connection ended inside a message head.
        public static let truncatedHead = Code(.truncatedHead)

        // MARK: Framing and connection semantics

        /// Both Content-Length and Transfer-Encoding. RFC 9112 §6.1, §6.3.
        public static let contentLengthWithTransferEncoding = Code(.contentLengthWithTransferEncoding)
        /// More than one Content-Length field line (even with identical values).
        public static let duplicateContentLength = Code(.duplicateContentLength)
        /// A Content-Length value that is not `1*DIGIT` (empty, signed, a list, spaces inside).
        public static let invalidContentLength = Code(.invalidContentLength)
        /// A Content-Length value above 2^63 - 1.
        public static let contentLengthOverflow = Code(.contentLengthOverflow)
        /// Transfer-Encoding with `chunked` not final, `chunked` twice, parameters on `chunked`,
        /// empty list elements or a non-token element. RFC 9112 §6.1, §6.3.
        public static let invalidTransferEncoding = Code(.invalidTransferEncoding)
        /// A transfer coding other than a single `chunked`, such as `gzip, chunked` (501).
        public static let unsupportedTransferCoding = Code(.unsupportedTransferCoding)
        /// Transfer-Encoding in an HTTP/1.0 message. RFC 9112 §6.1.
        public static let transferEncodingInHTTP10 = Code(.transferEncodingInHTTP10)
        /// A Connection element that is not a token.
        public static let invalidConnection = Code(.invalidConnection)
        /// A Connection option naming Host, Content-Length or Content-Type. RFC 9110 §7.6.1.
        public static let connectionNamesProtectedField = Code(.connectionNamesProtectedField)
        /// An Expect member other than `100-continue` (417). RFC 9110 §10.1.1.
        public static let unknownExpectation = Code(.unknownExpectation)
        /// An HTTP/1.1 request without Host. RFC 9112 §3.2.
        public static let missingHost = Code(.missingHost)
        /// More than one Host field line. RFC 9112 §3.2.
        public static let duplicateHost = Code(.duplicateHost)
        /// A Host value that is not `uri-host [":" port]`. RFC 9112 §3.2.
        public static let invalidHost = Code(.invalidHost)
        /// More than one Content-Type field line (CVE-2023-38199 class).
        public static let duplicateContentType = Code(.duplicateContentType)

        // MARK: Chunked transfer coding

        /// A chunk-size that is not `1*HEXDIG` directly followed by `;` or CRLF. RFC 9112 §7.1.
        public static let invalidChunkSize = Code(.invalidChunkSize)
        /// A chunk-size above `ChunkedLimits.maxChunkSize`, or with more than 32 digits.
        public static let chunkSizeOverflow = Code(.chunkSizeOverflow)
        /// A chunk extension that is not `;name[=token|quoted-string]`. RFC 9112 §7.1.1.
        public static let invalidChunkExtension = Code(.invalidChunkExtension)
        /// More chunk-extension bytes than `ChunkedLimits.maxExtensionBytes`. RFC 9112 §7.1.1.
        public static let chunkExtensionTooLong = Code(.chunkExtensionTooLong)
        /// Chunk data not followed by CRLF. RFC 9112 §7.1.
        public static let missingCRLFAfterChunk = Code(.missingCRLFAfterChunk)
        /// The trailer section is larger than `ChunkedLimits.maxTrailerBytes` (431).
        public static let trailerTooLarge = Code(.trailerTooLarge)
        /// The connection ended before the body was complete.
        public static let truncatedBody = Code(.truncatedBody)

        /// The HTTP status a server should answer a request with.
        public var suggestedStatus: Int {
            switch base {
            case .unknownMethod, .unsupportedTransferCoding: return 501
            case .unsupportedVersion: return 505
            case .unknownExpectation: return 417
            case .requestLineTooLong: return 414
            case .headTooLarge, .tooManyFields, .fieldLineTooLong, .trailerTooLarge: return 431
            case .invalidStatusLine, .invalidStatusCode, .statusLineTooLong: return 502
            default: return 400
            }
        }

        /// A one-line human description, suitable as a problem+json `title`.
        public var summary: String { base.summary }
    }
}
