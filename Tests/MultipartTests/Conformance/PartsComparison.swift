import Multipart

/// Compares the parts of an accepted body with the expected ones, as a ``PartsCheck`` says.
enum PartsComparison {
    /// Differences (empty when the parts agree).
    static func mismatches(
        expected: [ExpectedPart], actual: [(head: PartHead, data: [UInt8])], check: PartsCheck,
        filenames: [String: String]
    ) -> [String] {
        switch check {
        case .upstream, .explicit:
            guard expected.count == actual.count else {
                let got = actual.map(\.head.name)
                return ["\(actual.count) parts \(got), expected \(expected.count) \(expected.map(\.name))"]
            }
            return zip(expected, actual).flatMap { want, got in
                want.mismatches(got.head, got.data, filenameOverride: filenames[want.name])
            }
        case .upstreamSubset:
            var found: [String] = []
            var next = 0
            for want in expected {
                guard let index = actual[next...].firstIndex(where: { $0.head.name == want.name }) else {
                    found.append("no part '\(want.name)' (in order) among \(actual.map(\.head.name))")
                    continue
                }
                found += want.mismatches(actual[index].head, actual[index].data, filenameOverride: filenames[want.name])
                next = index + 1
            }
            return found
        case .names:
            let names = actual.map(\.head.name)
            let wanted = expected.map(\.name)
            return names == wanted ? [] : ["part names \(names), expected \(wanted)"]
        }
    }
}
