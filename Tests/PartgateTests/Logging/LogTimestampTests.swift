import Foundation
import Testing

@testable import partgate

/// The log's `ts` field: RFC 3339 UTC with milliseconds, formatted by hand.
@Suite("LogTimestamp")
struct LogTimestampTests {
    @Test func isRFC3339UTCWithMillisecondsAndTheCurrentTime() throws {
        let before = Date()
        let text = LogTimestamp.now()
        let after = Date()
        #expect(text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(text)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(parser.date(from: text), "\(text)")
        // Milliseconds are truncated, so the value may sit up to 1 ms before `before`.
        #expect(parsed.timeIntervalSince(before) > -0.002)
        #expect(parsed.timeIntervalSince(after) < 0.001)
    }
}
