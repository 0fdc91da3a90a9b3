/// An IPv4 or IPv6 address written as text, parsed into its bytes (so `::1` equals `0:0:0:0:0:0:0:1`).
///
/// IPv4: four decimal octets without leading zeros (`010.0.0.1` is refused: some parsers read it as octal).
/// IPv6: RFC 4291 text, at most one `::`, optionally ending in an IPv4 dotted quad; no zone (`%eth0`).
public struct IPAddressLiteral: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// 4 bytes.
        case ipv4
        /// 16 bytes.
        case ipv6
    }

    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]
    /// The text the address was parsed from.
    public let text: String

    /// IPv4 or IPv6, from the byte count.
    public var family: Family { bytes.count == 4 ? .ipv4 : .ipv6 }

    /// Whether this is `0.0.0.0` or `::` (every address of its family).
    public var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The text the address was parsed from.
    public var description: String { text }

    /// Equal when the bytes are: `::1` equals `0:0:0:0:0:0:0:1`.
    public static func == (lhs: IPAddressLiteral, rhs: IPAddressLiteral) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes only, like ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Parses `text` as an IPv4 dotted quad or an IPv6 address (without brackets).
    /// - Parameter text: e.g. `127.0.0.1` or `::1`.
    /// - Returns: nil when `text` is neither.
    public init?(_ text: String) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            bytes = v4
        } else if let v6 = Self.parseIPv6(text) {
            bytes = v6
        } else {
            return nil
        }
        self.text = text
    }

    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 4 else { return nil }
        var result: [UInt8] = []
        for piece in pieces {
            guard (1...3).contains(piece.count), piece.allSatisfy({ ("0"..."9").contains($0) }),
                piece.count == 1 || piece.first != "0", let value = UInt8(piece)
            else { return nil }
            result.append(value)
        }
        return result
    }

    static func parseIPv6(_ text: String) -> [UInt8]? {
        let halves = text.components(separatedByDoubleColon: ())
        guard halves.count <= 2 else { return nil }
        var groups: [[UInt8]] = []
        for (halfIndex, half) in halves.enumerated() {
            var parsed: [UInt8] = []
            guard !half.isEmpty else {
                groups.append(parsed)
                continue
            }
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                let isLast = halfIndex == halves.count - 1 && index == pieces.count - 1
                if isLast, piece.contains("."), let v4 = parseIPv4(piece) {
                    parsed += v4
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16),
                    piece.allSatisfy(\.isHexDigit)
                else { return nil }
                parsed += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            groups.append(parsed)
        }
        if halves.count == 1 {
            return groups[0].count == 16 ? groups[0] : nil
        }
        let present = groups[0].count + groups[1].count
        guard present <= 14 else { return nil }
        return groups[0] + [UInt8](repeating: 0, count: 16 - present) + groups[1]
    }
}

extension String {
    /// Splits at each `::` (the IPv6 zero-run marker); `a::b::c` gives three pieces.
    fileprivate func components(separatedByDoubleColon: ()) -> [Substring] {
        var pieces: [Substring] = []
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            let next = self.index(after: index)
            if self[index] == ":", next < endIndex, self[next] == ":" {
                pieces.append(self[start..<index])
                start = self.index(after: next)
                index = start
                continue
            }
            index = next
        }
        pieces.append(self[start..<endIndex])
        return pieces
    }
}
