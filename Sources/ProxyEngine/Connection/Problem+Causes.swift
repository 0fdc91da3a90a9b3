import HTTP1
import Multipart
import Policy

extension Problem {
    /// A malformed or refused request head or body framing: the error's suggested status (400, 413, 414,
    /// 417, 431, 501, ...) and its code name.
    /// - Parameter error: what the HTTP/1.1 parser or framing analysis refused.
    package init(http error: HTTP1Error) {
        self.init(error.suggestedStatus, error.code.name)
    }

    /// A multipart body the parser refused: 413 for a limit, 400 for malformed input.
    /// - Parameter error: the parser's error.
    package init(multipart error: MultipartError) {
        self.init(error.isLimit ? 413 : 400, error.name, part: error.part)
    }

    /// The policy stage refused the request: the rule's status, the rule (or route-level flag) as `flag`.
    /// - Parameter rejection: the stage's rejection.
    package init(rejection: PolicyRejection) {
        self.init(rejection.status, rejection.rule, detail: rejection.detail, part: rejection.partIndex)
    }

    /// A name the parser accepted but the canonical encoder cannot write.
    /// - Parameter error: the encoder's error.
    package init(encoding error: MultipartEncodingError) {
        self.init(400, error.code.rawValue, detail: "a name has no safe spelling")
    }

    /// The decoded body passed the route's `body_bytes`.
    /// - Parameter limit: the route's limit in bytes.
    package static func bodyTooLarge(_ limit: Int64) -> Problem {
        Problem(413, "limit_body_bytes", detail: "the body exceeds \(limit) bytes")
    }
}
