/// "Did you mean …?" for a misspelt key, flag, upstream name or choice.
enum Suggestion {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo: at most
    /// one edit for words up to 4 characters, two up to 8, three beyond. Ties go to the earlier candidate.
    /// - Parameters:
    ///   - word: what was written.
    ///   - candidates: the valid spellings.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let allowed = word.count <= 4 ? 1 : word.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= allowed, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// ` (did you mean 'x'?)` or the empty string.
    static func clause(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment).
    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left)
        let b = Array(right)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
