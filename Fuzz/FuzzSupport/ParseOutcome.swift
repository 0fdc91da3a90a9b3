import Multipart

/// What parsing one body produced: the events, the body bytes, and the error if it was rejected.
public struct ParseOutcome: Equatable, CustomStringConvertible {
    public var events: [LoggedEvent]
    public var data: [UInt8]
    /// For each part, the body offset of its first data byte (nil if it had none).
    public var dataStarts: [Int64?]
    public var error: MultipartError?

    /// One part as the parser reported it.
    public struct Part: Equatable {
        public var head: PartHead
        public var data: [UInt8]
        /// Body offsets of the part's data, if it had any.
        public var dataRange: Range<Int64>?
        /// Whether the part's delimiter was found (`partEnd`).
        public var ended: Bool
    }

    /// The parts, in order.
    public var parts: [Part] {
        var parts: [Part] = []
        for event in events {
            switch event {
            case .head(let head): parts.append(Part(head: head, data: [], dataRange: nil, ended: false))
            case .body(let range):
                let index = parts.count - 1
                parts[index].data += data[range]
                let start = dataStarts[index]!
                parts[index].dataRange = start..<(start + Int64(parts[index].data.count))
            case .partEnd: parts[parts.count - 1].ended = true
            case .end, .violation: break
            }
        }
        return parts
    }

    public var heads: [PartHead] {
        events.compactMap { if case .head(let head) = $0 { head } else { nil } }
    }

    public var violations: [MultipartViolation] {
        events.compactMap { if case .violation(let v) = $0 { v } else { nil } }
    }

    /// The events with body events left out (what split feedings must agree on even when rejected).
    public var structure: [LoggedEvent] {
        events.filter { if case .body = $0 { false } else { true } }
    }

    public var description: String {
        "\(events.map(\.description).joined(separator: " ")) error: \(error.map(String.init(describing:)) ?? "none")"
    }
}
