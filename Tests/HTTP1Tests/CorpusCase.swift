import Foundation
import Testing

/// One llhttp conformance case from `shared/corpus/llhttp`.
struct CorpusCase: Sendable, CustomTestStringConvertible {
    /// Path under `rendered/`, for example `request/connection/01-setting-flag.bin`.
    let file: String
    /// The markdown file it comes from.
    let sourceMD: String
    /// The test's heading.
    let title: String
    /// llhttp's test type: `request`, `response`, `request-lenient-headers`, ...
    let mode: String
    /// `ok` or `error`.
    let outcome: String
    /// Messages llhttp completed.
    let messagesCompleted: Int
    /// llhttp's error line, if any.
    let llhttpError: String?
    /// The input as llhttp's md-test.ts builds it from the markdown.
    let input: [UInt8]
    /// The bytes of the pre-rendered `.bin` file.
    let rendered: [UInt8]
    /// The `finish=N` value from the log, for the `*-finish` modes.
    let finish: Int?
    /// llhttp's `skipBody` harness flag: `on_headers_complete` asks llhttp not to read a body.
    let skipBody: Bool

    var testDescription: String { file }

    /// llhttp's numeric error code (22 = pause on CONNECT/Upgrade, 5 = data after close, ...).
    var llhttpErrorCode: Int? {
        guard let llhttpError, let range = llhttpError.range(of: "code=") else {
            return nil
        }
        return Int(llhttpError[range.upperBound...].prefix { $0.isNumber })
    }
}
