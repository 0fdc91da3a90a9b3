/// Checks for DNS host names as they appear in upstream URLs, `server_name` and route `host` globs.
public enum HostName {
    /// Whether `text` is a DNS name: dot-separated labels of ASCII letters, digits, `-` and `_` (service
    /// names such as `uploads_api` are common inside clusters), no label empty, longer than 63 or starting or
    /// ending with `-`; at most 253 characters; a single trailing dot is allowed.
    /// - Parameter text: the candidate name.
    public static func isValid(_ text: String) -> Bool {
        var name = Substring(text)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            let valid = label.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
            guard valid else { return false }
        }
        return true
    }
}
