extension Array where Element == UInt8 {
    /// Appends a string's UTF-8 in one copy: `append(contentsOf: string.utf8)` takes the generic sequence path,
    /// about twice the instructions for a field-sized string.
    package mutating func appendUTF8(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: string.utf8)
        }
    }

    /// Appends a literal's bytes in one copy.
    package mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
