/// The duration grammar of the configuration file.
///
/// A duration is one or more `<whole number><unit>` pieces, largest unit first, each unit at most once:
/// `250ms`, `30s`, `5m`, `1h`, `1m30s`. Units: `ms`, `s`, `m`, `h` (lower case; `m` is minutes, there is no
/// month). A bare number is refused: `30` could mean seconds or milliseconds depending on the tool the
/// operator last used, so the unit is required. Fractions (`1.5s`) are refused too: write `1500ms`.
public enum DurationSyntax {
    /// The units, largest first, with their length in milliseconds.
    static let units: [(name: String, milliseconds: Int64)] = [
        ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
    ]

    /// Parses a duration written as text, e.g. `10s`, `250ms` or `1m30s`.
    /// - Parameter text: the duration as written in the configuration.
    /// - Returns: the duration (whole milliseconds).
    /// - Throws: ``ConfigurationValueError`` with code `invalid_duration` naming the problem and the fix.
    public static func parse(_ text: String) throws(ConfigurationValueError) -> Duration {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else {
            throw ConfigurationValueError(.invalidDuration, "empty duration: expected e.g. 30s, 250ms, 5m or 1h")
        }
        var index = 0
        var total: Int64 = 0
        var previousUnit = -1
        while index < scalars.count {
            let digitsStart = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            let unitStart = index
            while index < scalars.count, !("0"..."9").contains(scalars[index]) { index += 1 }
            let digits = String(String.UnicodeScalarView(scalars[digitsStart..<unitStart]))
            let unit = String(String.UnicodeScalarView(scalars[unitStart..<index]))
            guard !digits.isEmpty else {
                throw ConfigurationValueError(
                    .invalidDuration,
                    "'\(text)' is not a duration: expected a whole number "
                        + "and a unit (ms, s, m, h), e.g. 30s")
            }
            if unit.hasPrefix(".") || unit.hasPrefix(",") {
                throw ConfigurationValueError(
                    .invalidDuration,
                    "'\(text)': durations are whole numbers; use a "
                        + "smaller unit (e.g. 1500ms instead of 1.5s)")
            }
            guard !unit.isEmpty else {
                throw ConfigurationValueError(
                    .invalidDuration, "'\(text)' needs a unit: ms, s, m or h (e.g. \(digits)s)")
            }
            guard let position = units.firstIndex(where: { $0.name == unit }) else {
                throw ConfigurationValueError(
                    .invalidDuration,
                    "'\(text)': unknown duration unit '\(unit)' "
                        + "(expected ms, s, m or h)")
            }
            guard position > previousUnit else {
                throw ConfigurationValueError(
                    .invalidDuration,
                    "'\(text)': write units largest first, each once "
                        + "(e.g. 1h30m)")
            }
            previousUnit = position
            guard let count = Int64(digits) else {
                throw ConfigurationValueError(.invalidDuration, "'\(text)' is too long")
            }
            let (piece, overflow) = count.multipliedReportingOverflow(by: units[position].milliseconds)
            let (sum, sumOverflow) = total.addingReportingOverflow(piece)
            guard !overflow, !sumOverflow else {
                throw ConfigurationValueError(.invalidDuration, "'\(text)' is too long")
            }
            total = sum
        }
        return .milliseconds(total)
    }

    /// `duration` in the largest unit that divides it exactly, e.g. `30s`, `5m` or `1500ms`.
    /// - Parameter duration: a duration of whole milliseconds.
    /// - Returns: text that ``parse(_:)`` reads back as `duration`.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        for unit in units where milliseconds != 0 && milliseconds % unit.milliseconds == 0 {
            return "\(milliseconds / unit.milliseconds)\(unit.name)"
        }
        return "\(milliseconds)ms"
    }

    /// `duration` in whole milliseconds (rounded toward zero).
    /// - Parameter duration: any duration.
    /// - Returns: the milliseconds, for timers that take an integer.
    public static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
