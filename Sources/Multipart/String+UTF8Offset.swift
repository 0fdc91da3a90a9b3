#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// The offset in the string's UTF-8 of the first `byte`, found with `memchr` over contiguous storage (a walk
    /// of the UTF-8 view costs ten times more on a short string).
    package func firstUTF8Offset(of byte: UInt8) -> Int? {
        if let found = utf8.withContiguousStorageIfAvailable({ buffer -> Int? in
            guard let base = buffer.baseAddress, let hit = memchr(base, Int32(byte), buffer.count) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }) {
            return found
        }
        return utf8.firstIndex(of: byte).map { utf8.distance(from: utf8.startIndex, to: $0) }
    }

    /// The index of the UTF-8 byte at `offset` (an ASCII byte's offset is a character boundary).
    package func utf8Index(at offset: Int) -> String.Index {
        utf8.index(utf8.startIndex, offsetBy: offset)
    }
}
