/// The characters a form-data name or filename cannot carry to every backend alike.
///
/// Browsers escape `"` as `%22` (and CR, LF as `%0D`, `%0A`); parsers that follow the HTML spec decode it
/// back while others do not, and quoted-pairs split them the other way (DESIGN.md, "Canonical output").
/// So a name holding `"`, `\`, CR, LF or a literal `%22` / `%0D` / `%0A` has no safe spelling.
///
/// Three more were found by the real-world proof suite (`proof/`, docs/proof.md), each read one way by
/// Werkzeug and python-multipart and another by formidable, which finds the filename with a regular expression:
/// - `&#` and a digit or `x` (an HTML numeric character reference): formidable decodes `&#9731;` to `☃` and
///   `&#0034;` to `"` in filenames, the others keep the text;
/// - U+2028 and U+2029 (line and paragraph separators): JavaScript's `.` does not match them, so formidable
///   finds no filename at all;
/// - `name=` in any case (so also `filename=`): formidable's `\bfilename=` search finds `filename=x.txt; ` inside a
///   quoted field name and reads a field as a file named `x.txt`.
public enum UnsafeName {
    /// The index of the first unsafe character (for a sequence, of its first byte), or nil if there is none.
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
            if replacedRange(array, at: index) != nil { return index }
            index += 1
        }
        return nil
    }

    /// The bytes that become one `_` when an unsafe sequence starts at `index`, or nil if none starts there:
    /// the character itself, the `%` of `%22`, the `&` of `&#`, the whole separator, the `=` of `name=`.
    private static func replacedRange(_ array: UnsafeRawBufferPointer, at index: Int) -> Range<Int>? {
        switch array[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 13, 10:
            return index..<index + 1
        case UInt8(ascii: "%") where index + 2 < array.count && isEscape(array[index + 1], array[index + 2]):
            return index..<index + 1
        case UInt8(ascii: "&") where index + 2 < array.count && array[index + 1] == UInt8(ascii: "#")
            && isReferenceStart(array[index + 2]):
            return index..<index + 1
        case 0xE2 where index + 2 < array.count && array[index + 1] == 0x80
            && (array[index + 2] == 0xA8 || array[index + 2] == 0xA9):
            return index..<index + 3
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            guard index + 4 < array.count, array[index + 4] == UInt8(ascii: "="),
                HeaderSyntax.lower(array[index + 1]) == UInt8(ascii: "a"),
                HeaderSyntax.lower(array[index + 2]) == UInt8(ascii: "m"),
                HeaderSyntax.lower(array[index + 3]) == UInt8(ascii: "e")
            else { return nil }
            return index + 4..<index + 5
        default:
            return nil
        }
    }

    /// True if `bytes` holds none of the unsafe characters.
    public static func isSafe(_ bytes: some Collection<UInt8>) -> Bool {
        firstUnsafeIndex(in: bytes) == nil
    }

    /// True if `string` holds none of the unsafe characters.
    public static func isSafe(_ string: String) -> Bool {
        firstUnsafeIndex(in: string.utf8) == nil
    }

    /// Replaces each unsafe sequence's character with `_` (for `%XX` the `%`, for `&#` the `&`, for `name=` the
    /// `=`, a separator whole), which makes the name safe and keeps it valid UTF-8 when it was.
    public static func replacingUnsafe(in bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { array in
            var out: [UInt8] = []
            out.reserveCapacity(array.count)
            var index = 0
            while index < array.count {
                if let range = replacedRange(array, at: index) {
                    out += array[index..<range.lowerBound]
                    out.append(UInt8(ascii: "_"))
                    index = range.upperBound
                } else {
                    out.append(array[index])
                    index += 1
                }
            }
            return out
        }
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

    /// A decimal digit or `x`/`X`: what follows `&#` in a numeric character reference.
    private static func isReferenceStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || HeaderSyntax.lower(byte) == UInt8(ascii: "x")
    }
}
