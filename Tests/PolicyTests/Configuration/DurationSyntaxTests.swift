import Policy
import Testing

@Suite("DurationSyntax")
struct DurationSyntaxTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("10s", .seconds(10)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("1m30s", .seconds(90)), ("1h2m3s4ms", .milliseconds(3_723_004)), ("0s", .zero), ("90s", .seconds(90)),
    ])
    func parsesUnitsAndCompounds(text: String, duration: Duration) throws {
        #expect(try DurationSyntax.parse(text) == duration)
    }

    @Test(arguments: [
        ("30", "'30' needs a unit: ms, s, m or h (e.g. 30s)"),
        ("1.5s", "durations are whole numbers"),
        ("5d", "unknown duration unit 'd'"),
        ("5S", "unknown duration unit 'S'"),
        ("5 s", "unknown duration unit ' s'"),
        ("s", "is not a duration"),
        ("", "empty duration"),
        ("30s1m", "largest first"),
        ("1s1s", "largest first"),
        ("-5s", "is not a duration"),
        ("99999999999999999999h", "is too long"),
        ("9999999999999999h", "is too long"),
    ])
    func refusesBareNumbersAndMalformedDurations(text: String, reason: String) {
        #expect {
            try DurationSyntax.parse(text)
        } throws: { error in
            let error = error as? ConfigurationValueError
            return error?.code == .invalidDuration && error?.reason.contains(reason) == true
        }
    }

    @Test func formatPicksTheLargestExactUnitAndReadsBack() throws {
        let cases: [(Duration, String)] = [
            (.seconds(30), "30s"), (.seconds(300), "5m"), (.seconds(7200), "2h"), (.milliseconds(1500), "1500ms"),
            (.zero, "0ms"), (.seconds(90), "90s"),
        ]
        for (duration, text) in cases {
            #expect(DurationSyntax.format(duration) == text)
            #expect(try DurationSyntax.parse(text) == duration)
        }
    }

    @Test func millisecondsTruncatesSubMillisecondParts() {
        #expect(DurationSyntax.milliseconds(.seconds(10)) == 10_000)
        #expect(DurationSyntax.milliseconds(.microseconds(2500)) == 2)
    }
}
