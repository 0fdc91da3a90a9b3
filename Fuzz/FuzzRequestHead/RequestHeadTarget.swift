import FuzzSupport
import HTTP1

/// `RequestHeadParser` on arbitrary bytes (pipelined heads), checked four ways.
///
/// 1. Split invariance and 2. bounds: ``HeadStream/check(_:limits:eachHead:)`` (the same heads, offsets and
///    stop whole, byte by byte and cut at two points; no head over `maxHeadBytes`; error offsets in the head).
/// 3. Round trip: a head written back with `serialized()` parses to the same head, consuming all of it.
/// 4. The checks the engine runs next (`RequestFraming(analyzing:)`, `validatedHost()`,
///    `singleContentType()`) never crash; framing never accepts Content-Length with Transfer-Encoding, and
///    a Content-Length framing is the field's value.
///
/// Under both of ``HeadStream/limitSets``.
enum RequestHeadTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        for limits in HeadStream<RequestHeadParser>.limitSets {
            HeadStream<RequestHeadParser>.check(input, limits: limits) { head in
                roundTrip(head, limits: limits)
                engineChecks(head)
            }
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
