/// The value bytes of the field lines with one name, in order, as slices of the head's storage.
///
/// A head has each framing field (Host, Content-Length, Transfer-Encoding, Connection, Expect) once or not at
/// all, so the first value is held inline and only a repeated name makes an array: looking them up costs no
/// allocation (an array per lookup was five allocations per proxied request).
package struct FieldValues: RandomAccessCollection, Sendable {
    private let storage: [UInt8]
    private var first: Range<Int>?
    private var rest: [Range<Int>] = []

    /// No values.
    init(storage: [UInt8]) {
        self.storage = storage
    }

    /// Adds the value at `range` of the storage.
    mutating func append(_ range: Range<Int>) {
        if first == nil {
            first = range
        } else {
            rest.append(range)
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { first == nil ? 0 : 1 + rest.count }

    package subscript(position: Int) -> ArraySlice<UInt8> {
        precondition(position >= 0 && position < endIndex, "FieldValues index out of range")
        return storage[position == 0 ? first! : rest[position - 1]]
    }
}
