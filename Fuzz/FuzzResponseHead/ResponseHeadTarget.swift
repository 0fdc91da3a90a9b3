import FuzzSupport
import HTTP1

/// `ResponseHeadParser` on arbitrary bytes (what an upstream may send), checked four ways.
///
/// 1. Split invariance and 2. bounds: ``HeadStream/check(_:limits:eachHead:)``, which also sets the status
///    line's one-pass path (a whole input) against the byte machine (one byte at a time).
/// 3. Round trip: a head written back with `write(into:)` parses to the same head, consuming all of it.
/// 4. Relay: `ResponseFraming(analyzing:requestMethod:)` never crashes, and never accepts Content-Length
///    with Transfer-Encoding. A head it accepts, written as the engine relays it (hop-by-hop fields and
///    Connection options removed, `Transfer-Encoding: chunked` re-added for a chunked body), parses back
///    with the same body framing and carries no hop-by-hop field but the one added: the client reads the
///    body exactly as partgate did.
///
/// Under both of ``HeadStream/limitSets``.
enum ResponseHeadTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        for limits in HeadStream<ResponseHeadParser>.limitSets {
            HeadStream<ResponseHeadParser>.check(input, limits: limits) { head in
                roundTrip(head, limits: limits)
                for method in ["GET", "HEAD", "POST"] {
                    relay(head, requestMethod: method)
                }
            }
        }
    }

    /// A parser whose limits admit `wire` (`write` adds a space after each colon and may add the reason's SP).
    static func parser(for wire: [UInt8], limits: HeadLimits) -> ResponseHeadParser {
        ResponseHeadParser(limits: HeadLimits(
            maxHeadBytes: max(limits.maxHeadBytes, wire.count), maxFieldCount: limits.maxFieldCount + 2,
            maxStartLineBytes: limits.maxStartLineBytes + 1, maxFieldLineBytes: limits.maxFieldLineBytes + 1))
    }

    static func roundTrip(_ head: ResponseHead, limits: HeadLimits) {
        var wire: [UInt8] = []
        head.write(into: &wire)
        var reader = parser(for: wire, limits: limits)
        let result = wire.withUnsafeBytes { reader.feed($0) }
        invariant(result == .complete(head, consumed: wire.count),
                  "\(head) written as \(String(decoding: wire, as: UTF8.self).debugDescription) parses to \(result)")
    }

    static func relay(_ head: ResponseHead, requestMethod: String) {
        let framing: ResponseFraming
        do {
            framing = try ResponseFraming(analyzing: head, requestMethod: requestMethod)
        } catch {
            return
        }
        invariant(!(head.fields.contains(named: "content-length") && head.fields.contains(named: "transfer-encoding")),
                  "framing \(framing) accepted Content-Length with Transfer-Encoding in \(head)")
        if head.isInformational { return }  // the engine drops interim heads and refuses 101
        let removed = head.hopByHopFieldNames
        var adding: [HTTPField] = []
        if framing.body == .chunked { adding.append(HTTPField(name: "Transfer-Encoding", value: "chunked")) }
        var wire: [UInt8] = []
        head.write(into: &wire, version: .http1_1, removing: FieldNameSet(removed), adding: adding)
        var reader = parser(for: wire, limits: HeadLimits())
        guard case .complete(let relayed, let consumed) = wire.withUnsafeBytes({ reader.feed($0) }) else {
            invariant(false, "\(head) relayed as \(String(decoding: wire, as: UTF8.self).debugDescription) does not parse")
            return
        }
        invariant(consumed == wire.count, "a relayed head parsed short: \(consumed) of \(wire.count) bytes")
        for field in relayed.fields where removed.contains(field.name.lowercased()) {
            invariant(field.name == "Transfer-Encoding" && framing.body == .chunked,
                      "hop-by-hop field \(field.name) relayed from \(head)")
        }
        let relayedFraming: ResponseFraming
        do {
            relayedFraming = try ResponseFraming(analyzing: relayed, requestMethod: requestMethod)
        } catch {
            invariant(false, "\(relayed) relayed from \(head) is refused: \(error)")
            return
        }
        // A body read until close stays so only because the relay closes; a 1.0 head's framing is kept.
        if framing.body != .untilClose {
            invariant(relayedFraming.body == framing.body,
                      "\(head) framed as \(framing.body) relays as \(relayedFraming.body)")
        }
    }
}
