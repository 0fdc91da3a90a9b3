/// One llhttp conformance case from `shared/corpus/llhttp`.
///
/// `CustomStringConvertible` (the file) is what Swift Testing shows for a parameterized case.
public struct CorpusCase: Sendable, CustomStringConvertible {
    /// Path under `rendered/`, for example `request/connection/01-setting-flag.bin`.
    public let file: String
    /// The markdown file it comes from.
    public let sourceMD: String
    /// The test's heading.
    public let title: String
    /// llhttp's test type: `request`, `response`, `request-lenient-headers`, ...
    public let mode: String
    /// `ok` or `error`.
    public let outcome: String
    /// Messages llhttp completed.
    public let messagesCompleted: Int
    /// llhttp's error line, if any.
    public let llhttpError: String?
    /// The input as llhttp's md-test.ts builds it from the markdown.
    public let input: [UInt8]
    /// The bytes of the pre-rendered `.bin` file.
    public let rendered: [UInt8]
    /// The `finish=N` value from the log, for the `*-finish` modes.
    public let finish: Int?
    /// llhttp's `skipBody` harness flag: `on_headers_complete` asks llhttp not to read a body.
    public let skipBody: Bool
    /// llhttp's callback log for this input (`off=N message begin`, `off=N headers complete ...`, ...).
    public let log: String

    public var description: String { file }

    /// llhttp's numeric error code (22 = pause on CONNECT/Upgrade, 5 = data after close, ...).
    public var llhttpErrorCode: Int? {
        guard let llhttpError, let range = llhttpError.range(of: "code=") else {
            return nil
        }
        return Int(llhttpError[range.upperBound...].prefix { $0.isNumber })
    }
}
