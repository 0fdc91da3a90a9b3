import HTTP1

/// Field names that are not, but could be read as, a field that decides framing or semantics:
/// `Content_-Type`, `content_type`, `ContentType`, `Transfer_Encoding`. Some stacks fold `_` into `-` or
/// drop punctuation when they map headers (CGI-style environments, some frameworks), so a backend could
/// read a multipart body partgate never parsed (the WAFFLED header-name corruption family). nginx drops
/// `_` headers by default for the same reason; partgate refuses the request (400 `ambiguous_header_name`).
enum HeaderLookalike {
    /// Sensitive names by their letters-and-digits skeleton.
    private static let sensitive: [String: String] = Dictionary(uniqueKeysWithValues: [
        "host", "content-type", "content-length", "transfer-encoding", "connection", "expect", "upgrade",
        "te", "trailer", "keep-alive", "proxy-connection",
    ].map { (skeleton($0), $0) })

    /// The first field whose name looks like a sensitive field without being spelled as one.
    static func first(in head: RequestHead) -> String? {
        for field in head.fields {
            let lower = field.name.lowercased()
            if let canonical = sensitive[skeleton(lower)], lower != canonical {
                return field.name
            }
        }
        return nil
    }

    private static func skeleton(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter {
            ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9")
        }))
    }
}
