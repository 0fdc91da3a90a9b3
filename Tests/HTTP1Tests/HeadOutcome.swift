@testable import HTTP1

/// The outcome of feeding one head parser a list of spans, in a form that can be compared.
enum HeadOutcome<Head: Hashable & Sendable>: Equatable {
    /// The head completed; `rest` holds the bytes after it (concatenated over the spans).
    case complete(Head, rest: [UInt8])
    /// Every byte was consumed and the head is not finished.
    case needMore
    /// The parser refused the input.
    case error(HTTP1Error)

    /// The error code, if any.
    var code: HTTP1Error.Code? {
        if case .error(let error) = self {
            return error.code
        }
        return nil
    }

    /// The head, if complete.
    var head: Head? {
        if case .complete(let head, _) = self {
            return head
        }
        return nil
    }
}
