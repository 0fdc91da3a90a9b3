import FuzzSupport
import HTTP1

/// `RequestHeadParser` on arbitrary bytes, checked four ways.
///
/// 1. Split invariance: the heads read (pipelined, up to ``HeadSequence/maxHeads``), the offsets after
///    them and the stop (waiting, or the error with its code and offset) are the same whether the input
///    comes whole, one byte at a time, or cut at two points the input's own bytes choose.
/// 2. Bounds: an error offset lies within the head being read; a head never exceeds `maxHeadBytes`
///    (counting the empty lines skipped before it).
/// 3. Round trip: a head written back with `serialized()` parses to the same head, consuming all of it.
/// 4. The checks the engine runs next (`RequestFraming(analyzing:)`, `validatedHost()`,
///    `singleContentType()`) never crash; framing never accepts Content-Length with Transfer-Encoding, and
///    a Content-Length framing is the field's value.
///
/// Two limit sets: the defaults, and small ones the fuzzer can reach (head 256, 8 fields, lines 64).
enum RequestHeadTarget {
    static let limitSets = [
        HeadLimits(),
        HeadLimits(maxHeadBytes: 256, maxFieldCount: 8, maxStartLineBytes: 64, maxFieldLineBytes: 64),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        for limits in limitSets {
            check(input, limits: limits)
        }
    }

    static func check(_ input: UnsafeRawBufferPointer, limits: HeadLimits) {
        let whole = HeadSequence.read(input, limits: limits, cuts: [])
        let bytewise = HeadSequence.read(input, limits: limits, cuts: Array(0..<input.count))
        invariant(whole == bytewise, "byte-at-a-time reading differs:\n whole \(whole)\n bytes \(bytewise)")
        let cuts = cutPoints(in: input)
        let split = HeadSequence.read(input, limits: limits, cuts: cuts)
        invariant(whole == split, "reading cut at \(cuts) differs:\n whole \(whole)\n split \(split)")

        var previousEnd = 0
        for (head, end) in zip(whole.heads, whole.ends) {
            invariant(end - previousEnd <= limits.maxHeadBytes,
                      "a head of \(end - previousEnd) bytes passed the \(limits.maxHeadBytes)-byte limit")
            previousEnd = end
            roundTrip(head, limits: limits)
            engineChecks(head)
        }
        if case .error(let error) = whole.stop, let offset = error.offset {
            invariant(offset >= 0 && offset <= input.count - previousEnd,
                      "error \(error) offset outside the \(input.count - previousEnd) bytes of the head")
        }
    }

    static func roundTrip(_ head: RequestHead, limits: HeadLimits) {
        let wire = head.serialized()
        // `serialized()` writes `name: value`; a line received as `name:value` grows by one byte.
        var parser = RequestHeadParser(limits: HeadLimits(
            maxHeadBytes: max(limits.maxHeadBytes, wire.count), maxFieldCount: limits.maxFieldCount,
            maxStartLineBytes: limits.maxStartLineBytes, maxFieldLineBytes: limits.maxFieldLineBytes + 1))
        let result = wire.withUnsafeBytes { parser.feed($0) }
        invariant(result == .complete(head, consumed: wire.count),
                  "\(head) written as \(String(decoding: wire, as: UTF8.self).debugDescription) parses to \(result)")
    }

    static func engineChecks(_ head: RequestHead) {
        if let framing = try? RequestFraming(analyzing: head) {
            invariant(!(head.contains("content-length") && head.contains("transfer-encoding")),
                      "framing \(framing) accepted Content-Length with Transfer-Encoding in \(head)")
            if case .contentLength(let length) = framing.body, let declared = head["content-length"] {
                invariant(UInt64(declared) == length, "Content-Length \(declared.debugDescription) framed as \(length)")
            }
        }
        _ = try? head.validatedHost()
        _ = try? head.singleContentType()
    }
}
