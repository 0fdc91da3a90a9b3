import FuzzSupport
import Multipart
import Policy

/// A multipart body through the multipart parser and a route's policy stage (`PolicyFilter`), as the engine
/// runs it, on five routes (``FuzzRoutes``).
///
/// Input: `[route][boundary length][boundary…][body…]` (the boundary as ``FuzzBoundary`` reads it).
///
/// 1. Split invariance: the parts written downstream (heads and data), the end, the parse error, the
///    rejection, each part's decision and its audit record (with a digest of the forwarded bytes) are the same
///    whether the body comes whole, one byte at a time, or cut at two points the input chooses; when refused,
///    except what the refused part had forwarded by then. A policy outcome must never depend on how TCP
///    segmented the body.
/// 2. Order: heads, bodies and ends reach the downstream in the grammar `(head body* end)* end?`.
/// 3. Bounds: the stage holds at most ``maxHeldUnits`` units of variable-size storage once a body ends (a
///    part's head and its 1,445-byte sniff window while undecided, whatever the body's size).
/// 4. Renewal: a stage renewed for the body after taking its first half (cut off there: a part held, streaming or
///    refused) gives exactly the new stage's outcome for it whole.
/// 5. Output: a body the stage let through whole re-encodes (`MultipartEncoder`) to bytes the strict parser
///    reads back as the same number of parts with the same data, unless a forwarded value has no safe
///    spelling (the engine then refuses the request) or a part's data holds the encoder's delimiter (the
///    engine's boundary is random per body).
enum PolicyTarget {
    static let maxHeldUnits = 4096
    static let outputBoundary = Boundary(Array("partgate-fuzz-output-7Qe1".utf8))!

    static func run(_ input: UnsafeRawBufferPointer) {
        var reader = FuzzInput(input)
        let route = FuzzRoutes.all[Int(reader.byte()) % FuzzRoutes.all.count]
        let boundary = FuzzBoundary.read(from: &reader)
        let body = reader.rest()

        let whole = PolicyOutcome.run(route, boundary: boundary, body, cuts: [])
        let expected = whole.splitInvariant
        let bytewise = PolicyOutcome.run(route, boundary: boundary, body, cuts: Array(0..<body.count))
        invariant(bytewise.splitInvariant == expected,
                  "route \(route.name), byte by byte:\n whole \(expected)\n bytes \(bytewise.splitInvariant)")
        let cuts = cutPoints(in: body)
        let split = PolicyOutcome.run(route, boundary: boundary, body, cuts: cuts)
        invariant(split.splitInvariant == expected,
                  "route \(route.name), cut at \(cuts):\n whole \(expected)\n split \(split.splitInvariant)")
        let renewed = PolicyOutcome.run(
            route, boundary: boundary, body, cuts: [],
            renewedAfter: UnsafeRawBufferPointer(rebasing: body[0..<(body.count / 2)]))
        invariant(renewed == whole, "route \(route.name), renewed after the first half:\n whole \(whole)\n renewed \(renewed)")
        if whole.rejection == nil, whole.parseError == nil {
            invariant(whole.ended, "route \(route.name): a body that parsed was not ended downstream")
            reencode(whole.parts)
        }
    }

    static func reencode(_ parts: [PolicyOutcome.Part]) {
        var encoder = MultipartEncoder(boundary: outputBoundary)
        var bytes: [UInt8] = []
        let delimiter = Array("--".utf8) + outputBoundary.bytes
        for part in parts {
            if part.data.count >= delimiter.count, containsSequence(part.data, delimiter) { return }
            do {
                try encoder.writePartHead(part.head, into: &bytes)
            } catch {
                return
            }
            bytes += part.data
        }
        encoder.writeEnd(into: &bytes)
        var parser = MultipartParser(boundary: outputBoundary)
        var reader = Recorder()
        do {
            try bytes.withUnsafeBytes { try parser.parse($0, into: &reader) }
            try parser.finish(into: &reader)
        } catch {
            invariant(false, "the re-encoded body of \(parts.count) parts fails to parse: \(error)")
        }
        invariant(reader.parts.map(\.data) == parts.map(\.data),
                  "the re-encoded body reads back as \(reader.parts.count) parts, \(parts.count) written")
    }

    static func containsSequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
