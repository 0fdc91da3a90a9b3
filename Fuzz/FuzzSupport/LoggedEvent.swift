import Multipart

/// One recorded parser event. Body bytes live in ``EventLog/data``; consecutive body events are merged,
/// so that every way of splitting the input records alike.
public enum LoggedEvent: Equatable, CustomStringConvertible {
    case head(PartHead)
    /// A run of body bytes: a range into ``EventLog/data``.
    case body(Range<Int>)
    case partEnd
    case end
    case violation(MultipartViolation)

    public var description: String {
        switch self {
        case .head(let head):
            return "head(#\(head.index) @\(head.offset) \(head.name.debugDescription) "
                + "\(head.filename?.debugDescription ?? "-") \(head.contentType ?? "-") \(head.headers.count)h)"
        case .body(let range): return "body(\(range.count))"
        case .partEnd: return "partEnd"
        case .end: return "end"
        case .violation(let v): return "violation(\(v.flag.rawValue) \(v.part.map(String.init) ?? "-") @\(v.offset))"
        }
    }
}
