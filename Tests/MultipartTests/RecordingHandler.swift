#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Multipart

/// One parser event, with consecutive body bytes merged so that every split of the input records alike.
enum RecordedEvent: Equatable, CustomStringConvertible {
    case head(PartHead)
    case body([UInt8])
    case partEnd
    case end
    case violation(MultipartViolation)

    /// The event without its payload.
    var kind: String {
        switch self {
        case .head: return "head"
        case .body: return "body"
        case .partEnd: return "partEnd"
        case .end: return "end"
        case .violation(let v): return "violation(\(v.flag.rawValue))"
        }
    }

    var description: String {
        switch self {
        case .head(let head): return "head(\(head.index) \(head.name) \(head.filename ?? "-") \(head.contentType ?? "-"))"
        case .body(let bytes): return "body(\(bytes.count))"
        case .partEnd: return "partEnd"
        case .end: return "end"
        case .violation(let v): return "violation(\(v.flag.rawValue) \(v.part.map(String.init) ?? "-") @\(v.offset))"
        }
    }

    /// Body bytes compare with `memcmp`: the corpus tests compare tens of kilobytes once per split offset,
    /// which the element-wise `Array ==` of an unoptimised build makes take minutes.
    static func == (lhs: RecordedEvent, rhs: RecordedEvent) -> Bool {
        switch (lhs, rhs) {
        case (.head(let left), .head(let right)):
            return left == right
        case (.body(let left), .body(let right)):
            guard left.count == right.count else { return false }
            return left.withUnsafeBytes { l in
                right.withUnsafeBytes { r in l.isEmpty || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0 }
            }
        case (.partEnd, .partEnd), (.end, .end):
            return true
        case (.violation(let left), .violation(let right)):
            return left == right
        default:
            return false
        }
    }
}

/// Records parser events; checks that body offsets are contiguous within a part.
struct RecordingHandler: MultipartHandler {
    var events: [RecordedEvent] = []
    var nextBodyOffset: Int64?
    var offsetErrors = 0

    mutating func partHead(_ head: PartHead) {
        events.append(.head(head))
        nextBodyOffset = nil
    }

    mutating func partBody(_ bytes: UnsafeRawBufferPointer, offset: Int64) {
        if let expected = nextBodyOffset, expected != offset { offsetErrors += 1 }
        nextBodyOffset = offset + Int64(bytes.count)
        if case .body = events.last, case .body(var previous) = events.removeLast() {
            // Moved out of the array, so appending does not copy: many small pieces stay linear.
            previous.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
            events.append(.body(previous))
        } else {
            events.append(.body(Array(bytes.assumingMemoryBound(to: UInt8.self))))
        }
    }

    mutating func partEnd() { events.append(.partEnd) }
    mutating func end() { events.append(.end) }
    mutating func violation(_ violation: MultipartViolation) { events.append(.violation(violation)) }

    /// The parts as (head, data) pairs.
    var parts: [(head: PartHead, data: [UInt8])] {
        var result: [(PartHead, [UInt8])] = []
        for event in events {
            switch event {
            case .head(let head): result.append((head, []))
            case .body(let bytes): result[result.count - 1].1 += bytes
            default: break
            }
        }
        return result
    }

    var violations: [MultipartViolation] {
        events.compactMap { if case .violation(let v) = $0 { return v } else { return nil } }
    }
}

/// What parsing one body produced.
struct ParseOutcome: Equatable, CustomStringConvertible {
    var events: [RecordedEvent]
    var error: MultipartError? = nil

    var description: String {
        "\(events) error: \(error.map(String.init(describing:)) ?? "none")"
    }

    var parts: [(head: PartHead, data: [UInt8])] {
        var handler = RecordingHandler()
        handler.events = events
        return handler.parts
    }

    var violations: [StrictFlag] {
        events.compactMap { if case .violation(let v) = $0 { return v.flag } else { return nil } }
    }

    var heads: [PartHead] {
        events.compactMap { if case .head(let head) = $0 { return head } else { return nil } }
    }
}
