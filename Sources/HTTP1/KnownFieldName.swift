/// The field names the proxy reads on every message (framing, routing, forwarding), located once when a head's
/// fields are made: each lookup of one is then an array read, not a walk over the field names.
package enum KnownFieldName: Int, CaseIterable, Sendable {
    case host
    case contentType
    case contentLength
    case transferEncoding
    case connection
    case expect
    case upgrade
    /// A response's `Keep-Alive` (its `timeout=`); the eighth and last slot of ``KnownFieldIndex``.
    case keepAlive

    /// The name in lower case.
    var text: StaticString {
        switch self {
        case .host: "host"
        case .contentType: "content-type"
        case .contentLength: "content-length"
        case .transferEncoding: "transfer-encoding"
        case .connection: "connection"
        case .expect: "expect"
        case .upgrade: "upgrade"
        case .keepAlive: "keep-alive"
        }
    }

    /// The known name `bytes` spell (ASCII case ignored), if any. The names differ in length but for `connection`
    /// and `keep-alive`, told apart by their first byte, so one comparison at most.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> KnownFieldName? {
        let candidate: KnownFieldName
        switch bytes.count {
        case 4: candidate = .host
        case 6: candidate = .expect
        case 7: candidate = .upgrade
        case 10: candidate = bytes[0] | 0x20 == UInt8(ascii: "k") ? .keepAlive : .connection
        case 12: candidate = .contentType
        case 14: candidate = .contentLength
        case 17: candidate = .transferEncoding
        default: return nil
        }
        return sameName(UnsafeRawPointer(bytes.baseAddress!), UnsafeRawPointer(candidate.text.utf8Start), bytes.count)
            ? candidate : nil
    }

    /// Whether the `count` bytes of a field name at `name` spell `lower` (lower-case letters and `-`), ASCII case
    /// ignored, compared a word at a time (the last word overlaps the one before it). Setting bit 5 of each byte
    /// is exact here: a byte whose bit-5 form is a lower-case letter is that letter in either case, and one whose
    /// bit-5 form is `-` is `-` or CR, which no name holds.
    @inline(__always)
    private static func sameName(_ name: UnsafeRawPointer, _ lower: UnsafeRawPointer, _ count: Int) -> Bool {
        if count >= 8 {
            let fold: UInt64 = 0x2020_2020_2020_2020
            var offset = 0
            while offset + 8 < count {
                guard name.loadUnaligned(fromByteOffset: offset, as: UInt64.self) | fold
                    == lower.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            return name.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) | fold
                == lower.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        // 4, 6 and 7 bytes: two overlapping 32-bit words.
        let fold: UInt32 = 0x2020_2020
        return name.loadUnaligned(as: UInt32.self) | fold == lower.loadUnaligned(as: UInt32.self)
            && name.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) | fold
                == lower.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
}

/// Where the known names sit in a field list: the first entry of each, and which appear more than once.
///
/// The first entries are a tuple, not a `SIMD8<Int32>`: a SIMD field gives every object holding the index
/// (an exchange holds two heads) 16-byte alignment, which the Swift runtime serves with `posix_memalign`
/// (~4× a `malloc`) on every allocation of it.
struct KnownFieldIndex: Sendable {
    private var present: UInt8 = 0
    private var repeated: UInt8 = 0
    private var first: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// What a lookup found.
    enum Lookup {
        case none
        /// Exactly one entry, at this index.
        case one(Int)
        /// More than one: the caller walks the entries.
        case several
    }

    /// Notes that entry `entry` has the name `name`.
    mutating func note(_ name: KnownFieldName, entry: Int) {
        let bit = UInt8(1) << UInt8(name.rawValue)
        if present & bit != 0 {
            repeated |= bit
        } else {
            present |= bit
            withUnsafeMutableBytes(of: &first) {
                $0.storeBytes(of: Int32(entry), toByteOffset: name.rawValue &* 4, as: Int32.self)
            }
        }
    }

    func lookup(_ name: KnownFieldName) -> Lookup {
        let bit = UInt8(1) << UInt8(name.rawValue)
        if present & bit == 0 { return .none }
        if repeated & bit != 0 { return .several }
        return .one(Int(withUnsafeBytes(of: first) { $0.load(fromByteOffset: name.rawValue &* 4, as: Int32.self) }))
    }
}
