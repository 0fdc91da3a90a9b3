/// The characters a form-data name or filename cannot carry to every backend alike.
///
/// Browsers escape `"` as `%22` (and CR, LF as `%0D`, `%0A`); parsers that follow the HTML spec decode it
/// back while others do not, and quoted-pairs split them the other way (DESIGN.md, "Canonical output").
/// So a name holding `"`, `\`, CR, LF or a literal `%22` / `%0D` / `%0A` has no safe spelling.
public enum UnsafeName {
    /// The index of the first unsafe character (for a `%XX` sequence, of its `%`), or nil if there is none.
    public static func firstUnsafeIndex(in bytes: some Collection<UInt8>) -> Int? {
        if let index = bytes.withContiguousStorageIfAvailable({ firstUnsafeIndex(inBuffer: UnsafeRawBufferPointer($0)) }) {
            return index
        }
        return Array(bytes).withUnsafeBytes { firstUnsafeIndex(inBuffer: $0) }
    }

    /// True if `bytes` holds none of the unsafe characters.
    static func isSafe(_ bytes: UnsafeRawBufferPointer) -> Bool {
        firstUnsafeIndex(inBuffer: bytes) == nil
    }

    private static func firstUnsafeIndex(inBuffer array: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < array.count {
            switch array[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 13, 10:
                return index
            case UInt8(ascii: "%") where index + 2 < array.count && isEscape(array[index + 1], array[index + 2]):
                return index
            default:
                index += 1
            }
        }
        return nil
    }

    /// True if `bytes` holds none of the unsafe characters.
    public static func isSafe(_ bytes: some Collection<UInt8>) -> Bool {
        firstUnsafeIndex(in: bytes) == nil
    }

    /// True if `string` holds none of the unsafe characters.
    public static func isSafe(_ string: String) -> Bool {
        firstUnsafeIndex(in: string.utf8) == nil
    }

    /// Replaces each unsafe character with `_` (for `%XX`, the `%`), which makes the name safe.
    public static func replacingUnsafe(in bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var index = 0
        while index < out.count {
            switch out[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 13, 10:
                out[index] = UInt8(ascii: "_")
            case UInt8(ascii: "%") where index + 2 < out.count && isEscape(out[index + 1], out[index + 2]):
                out[index] = UInt8(ascii: "_")
            default:
                break
            }
            index += 1
        }
        return out
    }

    /// `22`, `0D`/`0d`, `0A`/`0a`.
    private static func isEscape(_ first: UInt8, _ second: UInt8) -> Bool {
        switch (first, HeaderSyntax.lower(second)) {
        case (UInt8(ascii: "2"), UInt8(ascii: "2")), (UInt8(ascii: "0"), UInt8(ascii: "d")),
            (UInt8(ascii: "0"), UInt8(ascii: "a")):
            return true
        default:
            return false
        }
    }
}
