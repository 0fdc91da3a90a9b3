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

    /// Appends a non-negative number in decimal, without making a String.
    package mutating func appendDecimal(_ value: Int64) {
        precondition(value >= 0, "a length is never negative")
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for Int64.max's 19 digits
        var count = 0
        var rest = UInt64(value)
        Swift.withUnsafeMutableBytes(of: &digits) { space in
            repeat {
                count += 1
                space[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: space[(24 - count)...]))
        }
    }
}

