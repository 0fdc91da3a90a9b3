import Foundation
import Multipart
import Testing

/// Property tests: the encoder and the parser agree on every form, and the canonical form is a fixed point.
@Suite("Round trips")
struct RoundTripTests {
    /// The first seed; set MULTIPART_ROUNDTRIP_SEED (decimal or 0x-hex) to explore others.
    static let baseSeed: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["MULTIPART_ROUNDTRIP_SEED"] else { return 0x7061_7274_6761_7465 }
        guard let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text) else {
            preconditionFailure("MULTIPART_ROUNDTRIP_SEED must be a decimal or 0x-hex UInt64, not \(text.debugDescription)")
        }
        return seed
    }()

    static let iterations = 300

    /// (a) random form → encoder → parser (every flag set to reject) → the same parts, whatever the feeding.
    @Test func randomFormsSurviveEncodingAndParsing() throws {
        var coverage = RoundTripCoverage()
        for iteration in 0..<Self.iterations {
            let seed = Self.baseSeed &+ UInt64(iteration)
            if let failure = try Self.encodeThenParse(seed: seed, coverage: &coverage) {
                Issue.record("seed 0x\(String(seed, radix: 16)) (iteration \(iteration)): \(failure)")
                return  // one reproducible failure is enough
            }
        }
        #expect(coverage.shortfall == nil, "base seed 0x\(String(Self.baseSeed, radix: 16))")
    }

    /// One iteration of (a); nil when it holds, else what went wrong.
    static func encodeThenParse(seed: UInt64, coverage: inout RoundTripCoverage) throws -> String? {
        var form = RandomForm(seed: seed)
        let boundary = form.boundary()
        let parts = form.parts(boundary: boundary)
        coverage.record(parts, boundary: boundary)
        let encoder = MultipartEncoder(boundary: boundary)
        let encoded = try CanonicalEncoding.encode(parts, with: encoder)
        let lengths = parts.map { (head: $0.head, dataLength: Int64($0.data.count)) }
        guard try encoder.encodedLength(of: lengths) == Int64(encoded.body.count) else {
            return "encodedLength \(try encoder.encodedLength(of: lengths)) != \(encoded.body.count) bytes written"
        }
        // The parser learns the boundary the way a backend does: from the Content-Type value.
        let announced = try MultipartContentType.parse(encoder.contentType).boundary
        guard announced == boundary else { return "Content-Type \(encoder.contentType) announces \(announced)" }

        var feedings: [(String, [Int]?)] = [("whole", nil)]
        for _ in 0..<2 { feedings.append(("random pieces", form.pieces(covering: encoded.body.count))) }
        if encoded.body.count <= 4096 {
            feedings.append(("byte by byte", Array(repeating: 1, count: encoded.body.count)))
            coverage.byteByByteFeedings += 1
        }
        let expected = ParseOutcome(events: CanonicalEncoding.expectedEvents(parts, offsets: encoded.offsets))
        for (label, pieces) in feedings {
            let outcome = SplitFeeder.parse(encoded.body, boundary: announced.description, pieces: pieces,
                                            strictness: .rejectingEverything)
            let context = "\(parts.count) parts, \(encoded.body.count) bytes, boundary \(boundary.description.debugDescription), \(label)"
            if let error = outcome.error { return "\(context): \(error)" }
            if let difference = PartComparison.difference(CanonicalEncoding.parts(of: outcome), parts) {
                return "\(context): \(difference)"
            }
            // Data was compared above; here the heads (with index and offset) and the event sequence.
            if outcome.heads != expected.heads || outcome.events.map(\.kind) != expected.events.map(\.kind) {
                return "\(context): events \(outcome.events), expected \(expected.events)"
            }
        }
        return nil
    }

    /// (b) as a property: random forms in random non-canonical spellings parse to the parts they were
    /// written from, reporting exactly the expected violations, and re-encode to a fixed point.
    @Test func randomNonCanonicalBodiesReencodeToAFixedPoint() throws {
        for iteration in 0..<Self.iterations / 2 {
            let seed = Self.baseSeed &+ 0x1_0000_0000 &+ UInt64(iteration)
            if let failure = try Self.nonCanonicalThenCanonical(seed: seed) {
                Issue.record("seed 0x\(String(seed, radix: 16)) (iteration \(iteration)): \(failure)")
                return
            }
        }
    }

    /// One iteration of the property above; nil when it holds, else what went wrong.
    static func nonCanonicalThenCanonical(seed: UInt64) throws -> String? {
        var form = RandomForm(seed: seed)
        let boundary = form.boundary()
        var parts = form.parts(boundary: boundary)
        var writer = NonCanonicalWriter(seed: seed)
        let written = writer.write(&parts, boundary: boundary)
        let body = written.body
        var feedings: [(String, [Int]?)] = [("whole", nil), ("random pieces", form.pieces(covering: body.count))]
        if body.count <= 4096 { feedings.append(("byte by byte", Array(repeating: 1, count: body.count))) }
        for (label, pieces) in feedings {
            let outcome = SplitFeeder.parse(body, boundary: boundary.description, pieces: pieces, strictness: written.strictness)
            let context = "\(parts.count) parts, \(body.count) bytes, boundary \(boundary.description.debugDescription), \(label), "
                + "body \(String(decoding: body.prefix(600), as: UTF8.self).debugDescription)"
            if let error = outcome.error { return "\(context): \(error)" }
            if Set(outcome.violations) != written.violations {
                return "\(context): violations \(Set(outcome.violations)), expected \(written.violations)"
            }
            if let difference = PartComparison.difference(CanonicalEncoding.parts(of: outcome), parts) {
                return "\(context): \(difference)"
            }
        }
        let encoder = MultipartEncoder()
        let canonical = try CanonicalEncoding.encode(parts, with: encoder)
        let second = SplitFeeder.parse(canonical.body, boundary: encoder.boundary.description, strictness: .rejectingEverything)
        if let error = second.error { return "canonical re-encoding (boundary \(encoder.boundary)): \(error)" }
        let reparsed = CanonicalEncoding.parts(of: second)
        if let difference = PartComparison.difference(reparsed, parts) { return "canonical re-encoding: \(difference)" }
        guard ByteSearch.equal(try CanonicalEncoding.encode(reparsed, with: encoder).body, canonical.body) else {
            return "re-encoding the canonical parts changed the bytes"
        }
        return nil
    }

    /// (b) parser → encoder → parser: each accepted non-canonical body re-encodes to a canonical body that
    /// parses to the same parts with no violation, and re-encoding that is byte-identical (a fixed point).
    @Test(arguments: NonCanonicalBody.all)
    func acceptedBodiesReencodeToAFixedPoint(_ fixture: NonCanonicalBody) throws {
        let first = SplitFeeder.verify(fixture.body, boundary: fixture.boundary, strictness: fixture.strictness)
        try #require(first.error == nil, "\(first)")
        #expect(Set(first.violations) == fixture.violations, "the fixture must exercise its non-canonical form")
        let parsed = CanonicalEncoding.parts(of: first)
        #expect(PartComparison.difference(parsed, fixture.parts) == nil, "\(PartComparison.difference(parsed, fixture.parts) ?? "")")

        let encoder = MultipartEncoder()
        let canonical = try CanonicalEncoding.encode(parsed, with: encoder)
        let second = SplitFeeder.verify(canonical.body, boundary: encoder.boundary.description,
                                        strictness: .rejectingEverything)
        try #require(second.error == nil, "\(second) for \(String(decoding: canonical.body, as: UTF8.self).debugDescription)")
        #expect(second.violations.isEmpty)
        let reparsed = CanonicalEncoding.parts(of: second)
        #expect(PartComparison.difference(reparsed, parsed) == nil, "\(PartComparison.difference(reparsed, parsed) ?? "")")
        #expect(second.events == CanonicalEncoding.expectedEvents(reparsed, offsets: canonical.offsets))

        let again = try CanonicalEncoding.encode(reparsed, with: encoder)
        #expect(again.body == canonical.body, "re-encoding the canonical parts changed the bytes")
    }
}
