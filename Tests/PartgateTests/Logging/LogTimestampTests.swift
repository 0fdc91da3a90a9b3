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

    /// The calendar arithmetic against gmtime_r over instants around leap days, century years and the epoch.
    @Test func agreesWithGmtimeAcrossTheCalendar() {
        var instants: [Int64] = [0, 59, 86_399, 86_400, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_399,
                                 253_402_300_799]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            instants.append(Int64(state >> 31) % 253_402_300_799)
        }
        for instant in instants {
            var bytes: [UInt8] = []
            LogTimestamp.write(seconds: instant, milliseconds: 7, into: &bytes)
            var seconds = time_t(instant)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.007Z", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(instant)")
        }
    }
}
