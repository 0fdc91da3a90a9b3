/// Validation of `uri-host [":" port]` (RFC 3986 §3.2, RFC 9112 §3.2), shared by absolute-form and
/// authority-form request-targets and by the Host field.
///
/// Stricter than RFC 3986 on purpose: a reg-name may hold only unreserved characters and
/// percent-encodings, not sub-delims (`, ; = ! $ & ' ( ) * +`). No DNS name needs them, and a
/// Host such as `a,b` or `a;b` is read as a list or split by some backends.
enum AuthoritySyntax {
    /// Why an authority was refused.
    enum Failure: Equatable {
        /// `userinfo@` is present (RFC 9110 §4.2.4: treat as an error).
        case userinfo(at: Int)
        /// Any other syntax error, at this index.
        case invalid(at: Int)
    }

    /// Checks `bytes` as `uri-host [":" port]`.
    /// - Parameters:
    ///   - bytes: The authority bytes (no scheme, no path).
    ///   - allowEmptyHost: Whether an empty value is acceptable (a Host field may be empty).
    ///   - requirePort: Whether `":" port` with at least one digit is mandatory (CONNECT).
    /// - Returns: nil when valid.
    static func validate(
        _ bytes: some RandomAccessCollection<UInt8>,
        allowEmptyHost: Bool,
        requirePort: Bool
    ) -> Failure? {
        // Slices of a head's storage are contiguous: checked in place, not copied into an array first.
        if let failure = bytes.withContiguousStorageIfAvailable({
            validate(buffer: $0, allowEmptyHost: allowEmptyHost, requirePort: requirePort)
        }) {
            return failure
        }
        return Array(bytes).withUnsafeBufferPointer {
            validate(buffer: $0, allowEmptyHost: allowEmptyHost, requirePort: requirePort)
        }
    }

    private static func validate(
        buffer values: UnsafeBufferPointer<UInt8>, allowEmptyHost: Bool, requirePort: Bool
    ) -> Failure? {
        if let at = values.firstIndex(of: UInt8(ascii: "@")) {
            return .userinfo(at: at)
        }
        if values.isEmpty {
            return allowEmptyHost && !requirePort ? nil : .invalid(at: 0)
        }
        var index = 0
        if values[0] == UInt8(ascii: "[") {
            guard let close = values.firstIndex(of: UInt8(ascii: "]")), close > 1 else {
                return .invalid(at: 0)
            }
            for position in 1..<close {
                let byte = values[position]
                guard ByteClass.isUnreserved(byte) || ByteClass.isSubDelim(byte) || byte == ByteClass.colon else {
                    return .invalid(at: position)
                }
            }
            index = close + 1
        } else {
            while index < values.count, values[index] != ByteClass.colon {
                let byte = values[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < values.count, ByteClass.hexValue(values[index + 1]) != nil,
                        ByteClass.hexValue(values[index + 2]) != nil
                    else {
                        return .invalid(at: index)
                    }
                    index += 3
                    continue
                }
                guard ByteClass.isUnreserved(byte) else {
                    return .invalid(at: index)
                }
                index += 1
            }
            if index == 0 {
                return .invalid(at: 0)
            }
        }
        if index == values.count {
            return requirePort ? .invalid(at: index) : nil
        }
        guard values[index] == ByteClass.colon else {
            return .invalid(at: index)
        }
        let portStart = index + 1
        let port = values[portStart...]
        if port.isEmpty {
            return requirePort ? .invalid(at: portStart) : nil
        }
        guard port.count <= 5 else {
            return .invalid(at: portStart + 5)
        }
        var number = 0
        for (offset, byte) in port.enumerated() {
            guard ByteClass.isDigit(byte) else {
                return .invalid(at: portStart + offset)
            }
            number = number * 10 + Int(byte - 0x30)
        }
        return number <= 65535 ? nil : .invalid(at: portStart)
    }
}
