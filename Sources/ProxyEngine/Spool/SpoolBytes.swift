#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a small spooled body: one growable allocation that a reused ``Spool`` keeps, and regions are
/// reserved in it without being zeroed first (an array's `append(contentsOf: repeatElement(0, ...))` took more
/// instructions than the copy that then fills the region).
struct SpoolBytes: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0

    deinit { Glibc.free(base) }

    var isEmpty: Bool { count == 0 }

    /// The bytes held.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Appends `count` bytes that `fill` writes (growing the allocation as needed).
    mutating func append(count added: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        guard added > 0 else { return }
        if count + added > capacity {
            let wanted = max(count + added, 2 * capacity, 4096)
            guard let grown = Glibc.realloc(base, wanted) else { fatalError("out of memory (\(wanted) bytes)") }
            base = grown
            capacity = wanted
        }
        fill(UnsafeMutableRawBufferPointer(start: base! + count, count: added))
        count += added
    }

    /// Appends a copy of `bytes`.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(count: bytes.count) { $0.copyMemory(from: bytes) }
    }

    /// Forgets the bytes; keeps the allocation unless it is larger than `keeping` bytes.
    mutating func removeAll(keeping: Int) {
        count = 0
        if capacity > keeping {
            Glibc.free(base)
            base = nil
            capacity = 0
        }
    }
}
