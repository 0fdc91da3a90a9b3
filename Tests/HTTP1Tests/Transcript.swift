@testable import HTTP1

/// What happened on one simulated connection: the messages that completed and how input ended.
struct Transcript: Equatable, CustomStringConvertible {
    /// One complete message.
    struct Message: Equatable {
        /// `METHOD target` or the status code.
        var summary: String
        /// The framing the analysis chose.
        var framing: BodyFraming
        /// The body bytes, gathered from the data ranges.
        var body: [UInt8]
    }

    /// How the input ended.
    enum End: Equatable {
        /// All input consumed without an error (possibly inside a message).
        case open
        /// A parser or framing error.
        case error(HTTP1Error)
        /// Bytes arrived after a message that closes the connection.
        case dataAfterClose
        /// The connection left HTTP/1.1 (CONNECT, Upgrade, 101) after the last message.
        case handoff
        /// End of input was signalled; nil when that was a clean end.
        case closed(HTTP1Error?)
    }

    var messages: [Message] = []
    var pendingBody: [UInt8] = []
    var end: End = .open

    var description: String {
        "\(messages.count) message(s) \(messages.map(\.summary)), end: \(end)"
    }

    /// The error code that ended the input, if any.
    var errorCode: HTTP1Error.Code? {
        switch end {
        case .error(let error): return error.code
        case .closed(let error): return error?.code
        default: return nil
        }
    }
}
