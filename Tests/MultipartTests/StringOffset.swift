extension String {
    /// The UTF-8 offset of the `occurrence`-th (1-based) match of `needle`, for readable error offsets.
    func utf8Offset(of needle: String, occurrence: Int = 1) -> Int64 {
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        var seen = 0
        if pattern.count <= haystack.count {
            for start in 0...(haystack.count - pattern.count) where haystack[start..<(start + pattern.count)].elementsEqual(pattern) {
                seen += 1
                if seen == occurrence { return Int64(start) }
            }
        }
        preconditionFailure("\(needle.debugDescription) not found \(occurrence) time(s) in \(debugDescription)")
    }
}
