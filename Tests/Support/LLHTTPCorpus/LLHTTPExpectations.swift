import HTTP1

/// Where partgate's HTTP/1.1 reading departs from llhttp's on purpose (docs/http1-conformance.md), by
/// corpus file: the one list both the parser tests and the through-the-proxy tests check against.
public enum LLHTTPExpectations {
    /// Why partgate refused an input.
    public enum Rejection: Equatable, Sendable, CustomStringConvertible {
        case code(HTTP1Error.Code)
        /// Bytes after a message that closes the connection (llhttp's error 5).
        case dataAfterClose

        public var description: String {
            switch self {
            case .code(let code): return code.name
            case .dataAfterClose: return "data_after_close"
            }
        }
    }

    /// A case the corpus says llhttp's strict mode (or a lenient mode) accepts and partgate refuses.
    public struct Exception: Sendable {
        public let rejection: Rejection
        public let reason: String
        /// For inputs whose target carries `#hey`: the rejection once the fragment is removed, so
        /// that the rule the case is about is checked too.
        public let withoutFragment: Rejection?

        public init(_ rejection: Rejection, _ reason: String, withoutFragment: Rejection? = nil) {
            self.rejection = rejection
            self.reason = reason
            self.withoutFragment = withoutFragment
        }
    }

    /// The exception for `file` (strict or lenient), if any.
    public static func exception(for file: String) -> Exception? {
        strictExceptions[file] ?? lenientCases[file]
    }

    /// `bytes` with every occurrence of `pattern` removed (used to drop the `#hey` fragments).
    public static func removing(_ pattern: [UInt8], from bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, Array(bytes[index..<(index + pattern.count)]) == pattern {
                index += pattern.count
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    /// Cases llhttp's strict mode accepts and partgate refuses on purpose (docs/http1-conformance.md).
    public static let strictExceptions: [String: Exception] = [
        "request/method/05-m-search-request.bin": Exception(
            .code(.invalidTargetForm),
            "`M-SEARCH *`: asterisk-form is only for OPTIONS (RFC 9112 §3.2.4); SSDP is not HTTP"
        ),
        "request/method/12-source-request-with-ice.bin": Exception(
            .code(.invalidVersion),
            "`ICE/1.0` is not an HTTP-version; only HTTP/1.0 and HTTP/1.1 are accepted"
        ),
        "request/method/13-options-request-with-rtsp.bin": Exception(
            .code(.invalidVersion),
            "`RTSP/1.0` is not an HTTP-version"
        ),
        "request/method/14-announce-request-with-rtsp.bin": Exception(
            .code(.unknownMethod),
            "`ANNOUNCE` is an RTSP method, not in the HTTP method set (501)"
        ),
        "request/sample/10-no-http-version.bin": Exception(
            .code(.invalidRequestLine),
            "`GET /` without a version is an HTTP/0.9 request; RFC 9112 has no such form"
        ),
        "request/transfer-encoding/20-post-with-chunked-as-last-transfer-encoding.bin": Exception(
            .code(.invalidTarget),
            "fragment `#hey` in the target; without it, `deflate, chunked` is refused (501)",
            withoutFragment: .code(.unsupportedTransferCoding)
        ),
        "request/transfer-encoding/21-post-with-chunked-as-last-transfer-encoding-multiple-headers.bin": Exception(
            .code(.invalidTarget),
            "fragment `#hey`; without it, `deflate` + `chunked` lines are refused (501)",
            withoutFragment: .code(.unsupportedTransferCoding)
        ),
        "request/uri/08-fragment-in-uri.bin": Exception(
            .code(.invalidTarget),
            "a fragment is never part of a request-target (RFC 9112 §3.2); `/a#/../b` differential"
        ),
        "request/uri/10-host-port-and-basic-auth.bin": Exception(
            .code(.userinfoInTarget),
            "userinfo in an http URI is an error (RFC 9110 §4.2.4); routing confusion"
        ),
        "response/sample/02-rtsp-response.bin": Exception(.code(.invalidVersion), "`RTSP/1.1` status line"),
        "response/sample/03-ice-response.bin": Exception(.code(.invalidVersion), "`ICE/1.1` status line"),
        "response/sample/18-http-version-0-9.bin": Exception(
            .code(.unsupportedVersion),
            "`HTTP/0.9` in a status line; only HTTP/1.0 and HTTP/1.1 upstreams"
        ),
    ]

    /// Error cases whose target also carries the fragment `#hey`, which partgate refuses first: the
    /// rejection expected once the fragment is removed, so the framing rule under test is exercised.
    public static let fragmentVariants: [String: Rejection] = [
        "request/transfer-encoding/13-post-with-transfer-encoding-and-content-length.bin":
            .code(.contentLengthWithTransferEncoding),
        "request/transfer-encoding/16-post-with-chunked-before-other-transfer-coding-names.bin":
            .code(.invalidTransferEncoding),
        "request/transfer-encoding/17-post-with-chunked-and-duplicate-transfer-encoding.bin":
            .code(.invalidTransferEncoding),
        "request/transfer-encoding/22-post-with-chunkedchunked-as-transfer-encoding.bin":
            .code(.unsupportedTransferCoding),
    ]

    /// Cases that depend on an llhttp harness feature with no counterpart in a proxy, and what
    /// partgate does with the bytes instead.
    public static let skipped: [String: String] = [
        "request/content-length/16-content-length-reset-when-no-body-is-received.bin":
            "`skipBody`: the harness's on_headers_complete tells llhttp to ignore a request's Content-Length; "
            + "a server cannot, so the second request is read as the first one's body"
    ]

    /// Every lenient-mode case: the leniency it exercises, and how partgate refuses it.
    public static let lenientCases: [String: Exception] = [
        "request/connection/04-resetting-flags-when-keep-alive-is-off-1-0-lenient.bin": Exception(
            .dataAfterClose,
            "keep-alive: a second request after an HTTP/1.0 request without keep-alive"
        ),
        "request/connection/11-crlf-between-requests-explicit-close-lenient.bin": Exception(
            .dataAfterClose,
            "keep-alive: a request after `Connection: close`"
        ),
        "request/connection/13-multiple-tokens-with-folding.bin": Exception(
            .code(.obsFold),
            "headers: obs-fold inside Connection"
        ),
        "request/connection/15-multiple-tokens-with-folding-lws-and-crlf.bin": Exception(
            .code(.obsFold),
            "headers: obs-fold after `keep-alive, `"
        ),
        "request/connection/17-invalid-whitespace-token-with-connection-header-field-lenien.bin": Exception(
            .code(.whitespaceBeforeColon),
            "headers: `Connection : upgrade`"
        ),
        "request/content-length/07-invalid-whitespace-token-with-content-length-header-field-le.bin": Exception(
            .code(.whitespaceBeforeColon),
            "headers: `Content-Length : 4`"
        ),
        "request/content-length/08-no-error-on-simultaneous-content-length-and-transfer-encodin.bin": Exception(
            .code(.contentLengthWithTransferEncoding),
            "chunked-length: Content-Length with Transfer-Encoding"
        ),
        "request/content-length/18-missing-crlf-crlf-before-body-lenient.bin": Exception(
            .code(.bareCR),
            "optional-lf-after-cr: head ended by CR CR LF CR"
        ),
        "request/invalid/08-headers-separated-by-dummy-characters-lenient.bin": Exception(
            .code(.bareCR),
            "optional-lf-after-cr: `CR Z` after the field section"
        ),
        "request/invalid/22-only-lfs-present-lenient.bin": Exception(
            .code(.bareLF),
            "all: LF line endings everywhere"
        ),
        "request/invalid/24-spaces-before-headers-lenient.bin": Exception(
            .code(.obsFold),
            "headers: ` Content-Length: 38` read as a continuation line"
        ),
        "request/lenient-header-value-relaxed/01-control-char-in-header-value-relaxed.bin": Exception(
            .code(.invalidFieldValue),
            "header-value-relaxed: form feed in a value"
        ),
        "request/lenient-header-value-relaxed/03-lf-in-header-value-should-be-rejected-even-with-relaxed-flag.bin":
            Exception(.code(.bareLF), "header-value-relaxed (llhttp also refuses): `x:` LF"),
        "request/lenient-header-value-relaxed/04-cr-without-lf-in-header-value-should-be-rejected-even-with-r.bin":
            Exception(.code(.bareCR), "header-value-relaxed (llhttp also refuses): `x:` CR"),
        "request/lenient-header-value-relaxed/05-space-after-start-line-must-still-fail.bin": Exception(
            .code(.whitespaceAfterStartLine),
            "header-value-relaxed (llhttp also refuses): SP before the first field"
        ),
        "request/lenient-headers/01-header-value-lenient.bin": Exception(
            .code(.invalidFieldValue),
            "headers: form feed as a value"
        ),
        "request/lenient-headers/02-second-request-header-value-lenient.bin": Exception(
            .code(.invalidFieldValue),
            "headers: form feed as a value in the second request"
        ),
        "request/lenient-headers/04-empty-headers-separated-by-cr-lenient.bin": Exception(
            .code(.bareCR),
            "headers: `x:` CR `Transfer-Encoding: chunked`"
        ),
        "request/lenient-version/01-invalid-http-version-lenient.bin": Exception(
            .code(.unsupportedVersion),
            "version: HTTP/5.6"
        ),
        "request/sample/11-line-folding-in-header-value-with-crlf.bin": Exception(
            .code(.obsFold),
            "headers: obs-fold"
        ),
        "request/sample/14-no-lf-after-cr-lenient.bin": Exception(
            .code(.bareCR),
            "optional-lf-after-cr: request line ended by CR alone"
        ),
        "request/sample/18-x-ssl-nonsense.bin": Exception(.code(.obsFold), "headers: folded certificate"),
        "request/transfer-encoding/14-post-with-transfer-encoding-and-content-length-lenient.bin": Exception(
            .code(.invalidTarget),
            "chunked-length: `identity` + Content-Length (and a fragment in the target)",
            withoutFragment: .code(.contentLengthWithTransferEncoding)
        ),
        "request/transfer-encoding/18-post-with-chunked-before-other-transfer-coding-lenient.bin": Exception(
            .code(.invalidTarget),
            "transfer-encoding: `chunked, deflate` (and a fragment in the target)",
            withoutFragment: .code(.invalidTransferEncoding)
        ),
        "request/transfer-encoding/19-post-with-chunked-and-duplicate-transfer-encoding-lenient.bin": Exception(
            .code(.invalidTarget),
            "transfer-encoding: `chunked` then `deflate` lines (and a fragment in the target)",
            withoutFragment: .code(.invalidTransferEncoding)
        ),
        "request/transfer-encoding/25-invalid-obs-fold-after-chunked-value.bin": Exception(
            .code(.obsFold),
            "headers (llhttp also refuses): obs-fold after `chunked`"
        ),
        "request/transfer-encoding/27-chunk-header-not-terminated-by-crlf-lenient.bin": Exception(
            .code(.bareCR),
            "optional-lf-after-cr: chunk-size line `6` CR CR"
        ),
        "request/transfer-encoding/29-chunk-data-not-terminated-by-crlf-lenient.bin": Exception(
            .code(.missingCRLFAfterChunk),
            "optional-crlf-after-chunk: chunk data followed by `0`"
        ),
        "request/transfer-encoding/31-space-after-chunk-header-lenient.bin": Exception(
            .code(.invalidChunkSize),
            "spaces-after-chunk-size: `a ` CRLF"
        ),
        "response/connection/07-http-1-1-with-keep-alive-disabled-content-length-lenient.bin": Exception(
            .dataAfterClose,
            "data-after-close: bytes after a `Connection: close` response"
        ),
        "response/connection/09-http-1-1-with-keep-alive-disabled-and-204-status-lenient.bin": Exception(
            .dataAfterClose,
            "keep-alive: a response after a `Connection: close` 204"
        ),
        "response/invalid/09-bare-cr-after-response-line-lenient.bin": Exception(
            .code(.bareCR),
            "optional-lf-after-cr: status line ended by CR alone"
        ),
        "response/invalid/17-only-lfs-present-and-no-body-lenient.bin": Exception(
            .code(.bareLF),
            "all: LF line endings"
        ),
        "response/invalid/19-only-lfs-present-lenient.bin": Exception(.code(.bareLF), "all: LF line endings"),
        "response/lenient-version/01-invalid-http-version-lenient.bin": Exception(
            .code(.unsupportedVersion),
            "version: HTTP/5.6"
        ),
        "response/sample/12-no-carriage-ret-lenient.bin": Exception(
            .code(.bareLF),
            "optional-cr-before-lf: LF line endings"
        ),
        "response/transfer-encoding/10-invalid-obs-fold-after-chunked-value.bin": Exception(
            .code(.obsFold),
            "headers: obs-fold after `chunked`"
        ),
    ]
}
