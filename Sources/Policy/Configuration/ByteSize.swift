/// The size grammar of the configuration file.
///
/// A size is either a plain non-negative integer (a byte count) or a whole number followed by a unit, with at
/// most one space between them:
///
/// | unit | bytes |
/// |---|---|
/// | `B` | 1 |
/// | `KiB` | 1024 |
/// | `MiB` | 1024² |
/// | `GiB` | 1024³ |
/// | `TiB` | 1024⁴ |
///
/// The `iB` units are matched case-insensitively (`mib` is `MiB`). Decimal and single-letter units (`KB`,
/// `MB`, `GB`, `k`, `M`, `G`, …) are refused as ambiguous: tools disagree on whether `MB` means 10⁶ or 2²⁰
/// bytes, and a limit that is 5 % off is a silent bug. Fractions (`1.5GiB`) are refused too: write `1536MiB`.
public enum ByteSize {
    /// The binary units, smallest first.
    static let units: [(name: String, multiplier: Int64)] = [
        ("b", 1), ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("tib", 1 << 40),
    ]

    /// Parses a size written as text, e.g. `16KiB`, `1 GiB`, `512B` or `1048576`.
    /// - Parameter text: the size as written in the configuration.
    /// - Returns: the size in bytes.
    /// - Throws: ``ConfigurationValueError`` with code `invalid_size` naming the problem and the fix.
    public static func parse(_ text: String) throws(ConfigurationValueError) -> Int64 {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        let digits = String(String.UnicodeScalarView(scalars[0..<index]))
        var unitStart = index
        if unitStart < scalars.count, scalars[unitStart] == " " { unitStart += 1 }
        let unit = String(String.UnicodeScalarView(scalars[unitStart...]))
        guard !digits.isEmpty else {
            throw ConfigurationValueError(
                .invalidSize,
                "'\(text)' is not a size: expected a byte count or a number "
                    + "with B, KiB, MiB, GiB or TiB (e.g. 16KiB)")
        }
        if unit.hasPrefix(".") || unit.hasPrefix(",") {
            throw ConfigurationValueError(
                .invalidSize,
                "'\(text)': sizes are whole numbers; use a smaller unit "
                    + "(e.g. 1536MiB instead of 1.5GiB)")
        }
        guard let count = Int64(digits) else {
            throw ConfigurationValueError(.invalidSize, "'\(text)' is too large")
        }
        guard !unit.isEmpty || unitStart == index else {
            throw ConfigurationValueError(.invalidSize, "'\(text)': missing unit after the space")
        }
        let multiplier: Int64
        if unit.isEmpty {
            multiplier = 1
        } else if let known = units.first(where: { $0.name == unit.lowercased() }) {
            multiplier = known.multiplier
        } else {
            throw ConfigurationValueError(.invalidSize, unknownUnitReason(text: text, count: count, unit: unit))
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow else {
            throw ConfigurationValueError(.invalidSize, "'\(text)' is too large")
        }
        return bytes
    }

    /// The explanation for a unit outside the grammar; ambiguous decimal units get both readings.
    private static func unknownUnitReason(text: String, count: Int64, unit: String) -> String {
        let ambiguous: [String: (binary: String, power: Int64)] = [
            "k": ("KiB", 1), "kb": ("KiB", 1), "m": ("MiB", 2), "mb": ("MiB", 2),
            "g": ("GiB", 3), "gb": ("GiB", 3), "t": ("TiB", 4), "tb": ("TiB", 4),
        ]
        if let reading = ambiguous[unit.lowercased()] {
            var decimal: Int64 = count
            var overflow = false
            for _ in 0..<reading.power where !overflow {
                (decimal, overflow) = decimal.multipliedReportingOverflow(by: 1000)
            }
            let alternative = overflow ? "" : " or a byte count (\(decimal))"
            return "'\(text)': the unit '\(unit)' is ambiguous; write \(count)\(reading.binary)\(alternative)"
        }
        return "'\(text)': unknown size unit '\(unit)' (expected B, KiB, MiB, GiB or TiB)"
    }

    /// `bytes` in the largest binary unit that divides it exactly, e.g. `8MiB` or `1000B`.
    /// - Parameter bytes: a byte count.
    /// - Returns: text that ``parse(_:)`` reads back as `bytes`.
    public static func format(_ bytes: Int64) -> String {
        let names = ["B", "KiB", "MiB", "GiB", "TiB"]
        for (offset, unit) in units.enumerated().reversed() where bytes != 0 && bytes % unit.multiplier == 0 {
            return "\(bytes / unit.multiplier)\(names[offset])"
        }
        return "\(bytes)B"
    }
}
