import Multipart

/// Compares parsed parts with the parts that were encoded, and says where they first differ.
enum PartComparison {
    /// nil if `actual` equals `expected`: names, filenames and types byte for byte, headers (names
    /// compared case-insensitively: the encoder writes them in canonical case), and data.
    static func difference(_ actual: [FormPart], _ expected: [FormPart]) -> String? {
        guard actual.count == expected.count else { return "\(actual.count) parts, expected \(expected.count)" }
        for (index, (got, want)) in zip(actual, expected).enumerated() {
            if let difference = difference(got.head, want.head) { return "part \(index): \(difference)" }
            if !ByteSearch.equal(got.data, want.data) {
                let common = min(got.data.count, want.data.count)
                let at = (0..<common).first { got.data[$0] != want.data[$0] } ?? common
                return "part \(index): data differs at byte \(at) (\(got.data.count) bytes, expected \(want.data.count))"
            }
        }
        return nil
    }

    static func difference(_ got: PartHead, _ want: PartHead) -> String? {
        if Array(got.name.utf8) != Array(want.name.utf8) {
            return "name \(got.name.debugDescription), expected \(want.name.debugDescription)"
        }
        if got.filename.map({ Array($0.utf8) }) != want.filename.map({ Array($0.utf8) }) {
            return "filename \(String(describing: got.filename)), expected \(String(describing: want.filename))"
        }
        if got.contentType.map({ Array($0.utf8) }) != want.contentType.map({ Array($0.utf8) }) {
            return "type \(String(describing: got.contentType)), expected \(String(describing: want.contentType))"
        }
        if got.headers.map(normalized) != want.headers.map(normalized) {
            return "headers \(got.headers), expected \(want.headers)"
        }
        return nil
    }

    private static func normalized(_ header: PartHeader) -> [[UInt8]] {
        [header.name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, Array(header.value.utf8)]
    }
}
