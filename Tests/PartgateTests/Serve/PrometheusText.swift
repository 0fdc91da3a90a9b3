import Foundation

/// Prometheus text exposition (format 0.0.4) as samples: what `GET /metrics` answered, parsed line by line.
struct PrometheusText {
    /// One sample line: `name{label="value",...} value`.
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Every sample, in order.
    let samples: [Sample]
    /// `# TYPE` lines: metric family name to type.
    let types: [String: String]
    /// `# HELP` lines: metric family name to its (escaped) help text.
    let helps: [String: String]
    /// The exposition as received.
    let text: String
    /// Lines that are neither comments nor well-formed samples (a test expects none).
    let malformed: [String]

    init(_ text: String) {
        var samples: [Sample] = []
        var types: [String: String] = [:]
        var helps: [String: String] = [:]
        var malformed: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                if words.count == 4 { types[String(words[2])] = String(words[3]) }
                continue
            }
            if line.hasPrefix("# HELP ") {
                let words = line.split(separator: " ", maxSplits: 3)
                if words.count == 4 { helps[String(words[2])] = String(words[3]) }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let sample = Self.sample(String(line)) else {
                malformed.append(String(line))
                continue
            }
            samples.append(sample)
        }
        self.samples = samples
        self.types = types
        self.helps = helps
        self.text = text
        self.malformed = malformed
    }

    private static func sample(_ line: String) -> Sample? {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
            return nil
        }
        let series = line[..<space]
        guard let brace = series.firstIndex(of: "{") else {
            return Sample(name: String(series), labels: [:], value: value)
        }
        guard series.hasSuffix("}") else { return nil }
        var labels: [String: String] = [:]
        var rest = series[series.index(after: brace)..<series.index(before: series.endIndex)]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].hasPrefix("\"") else {
                return nil
            }
            let key = String(rest[..<equals])
            let valueStart = rest.index(equals, offsetBy: 2)
            guard let quote = rest[valueStart...].firstIndex(of: "\"") else { return nil }
            labels[key] = String(rest[valueStart..<quote])
            rest = rest[rest.index(after: quote)...]
            if rest.hasPrefix(",") { rest = rest.dropFirst() }
        }
        return Sample(name: String(series[..<brace]), labels: labels, value: value)
    }

    /// The value of the one sample named `name` with exactly `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { $0.name == name && $0.labels == labels }
        return matching.count == 1 ? matching[0].value : nil
    }

    /// Every sample named `name` whose labels include `labels`.
    func samples(_ name: String, including labels: [String: String]) -> [Sample] {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
    }
}
