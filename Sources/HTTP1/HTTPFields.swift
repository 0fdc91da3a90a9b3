/// An ordered list of field lines, stored as one byte buffer plus offsets.
///
/// Parsed heads hand their buffer over without copying; lookups compare names case-insensitively
/// (ASCII) without allocating. Order and duplicates are preserved exactly as received.
public struct HTTPFields: Sendable {
    /// Offsets of one field line inside `storage`.
    struct Entry: Hashable, Sendable {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
    }

    /// Raw bytes that the entries point into (for a parsed head: the whole head).
    private(set) var storage: [UInt8]
    /// One entry per field line, in order.
    private(set) var entries: [Entry]
    /// Bit `n` is set when some name is `n` bytes long (bit 63: 63 or more): a lookup of a name whose length
    /// no field has (most lookups: `transfer-encoding`, `connection`, `expect`, ... are seldom sent) ends at
    /// once, without reaching the name's bytes or the entries.
    private var nameLengths: UInt64 = 0
    /// Where the names read on every message are (``KnownFieldName``).
    private var known = KnownFieldIndex()

    /// Creates an empty list.
    public init() {
        storage = []
        entries = []
    }

    /// Adopts a parsed head's bytes and field offsets.
    init(storage: [UInt8], entries: [Entry]) {
        self.storage = storage
        self.entries = entries
        indexNames()
    }

    /// The most buffer bytes a parser takes back from a finished head (``RequestHeadParser/recycle(_:)``): a
    /// typical head's, so that an idle keep-alive connection keeps no more than that.
    public static let maxRecycledBytes = 4096

    /// Whether a parser would take this list's buffers back (``maxRecycledBytes``).
    public var isRecyclable: Bool {
        storage.capacity <= Self.maxRecycledBytes && entries.capacity <= Self.maxRecycledBytes / 32
    }

    /// Gives up the byte buffer and the entry list, emptied, their capacity kept (no allocation when nothing else
    /// holds them); the list is left empty.
    mutating func takeBuffers() -> (storage: [UInt8], entries: [Entry]) {
        var taken = (storage: [UInt8](), entries: [Entry]())
        swap(&taken.storage, &storage)
        swap(&taken.entries, &entries)
        nameLengths = 0
        known = KnownFieldIndex()
        taken.storage.removeAll(keepingCapacity: true)
        taken.entries.removeAll(keepingCapacity: true)
        return taken
    }

    /// Sets `nameLengths` and `known` for all entries.
    private mutating func indexNames() {
        var mask: UInt64 = 0
        var index = KnownFieldIndex()
        storage.withUnsafeBufferPointer { stored in
            entries.withUnsafeBufferPointer { entries in
                for position in entries.indices {
                    let entry = entries[position]
                    let count = entry.nameEnd - entry.nameStart
                    mask |= Self.lengthBit(count)
                    if let base = stored.baseAddress,
                        let name = KnownFieldName.of(UnsafeBufferPointer(start: base + entry.nameStart, count: count))
                    {
                        index.note(name, entry: position)
                    }
                }
            }
        }
        nameLengths = mask
        known = index
    }

    @inline(__always)
    private static func lengthBit(_ length: Int) -> UInt64 {
        1 << UInt64(Swift.min(length, 63))
    }

    /// Appends a field line.
    /// - Parameter field: The field to append.
    public mutating func append(_ field: HTTPField) {
        let nameStart = storage.count
        storage.append(contentsOf: field.name.utf8)
        let valueStart = storage.count
        storage.append(contentsOf: field.valueBytes)
        entries.append(
            Entry(nameStart: nameStart, nameEnd: valueStart, valueStart: valueStart, valueEnd: storage.count)
        )
        nameLengths |= Self.lengthBit(valueStart - nameStart)
        let entry = entries.count - 1
        if let name = storage.withUnsafeBufferPointer({ KnownFieldName.of(UnsafeBufferPointer(rebasing: $0[nameStart..<valueStart])) }) {
            known.note(name, entry: entry)
        }
    }

    /// Appends a field line.
    /// - Parameters:
    ///   - name: A token.
    ///   - value: A value without control characters.
    public mutating func append(name: String, value: String) {
        append(HTTPField(name: name, value: value))
    }

    /// Removes every field line whose name matches, ignoring ASCII case.
    /// - Parameter name: The field name.
    public mutating func removeAll(named name: String) {
        entries = entries.filter { !nameMatches($0, name) }
        indexNames()
    }

    /// The value of the first field named `name` (ASCII case-insensitive), decoded as UTF-8.
    /// - Parameter name: The field name.
    public func first(named name: String) -> String? {
        var found: Entry?
        forEachEntry(named: name) { entry in
            found = entry
            return false
        }
        guard let entry = found else { return nil }
        return String(decoding: storage[entry.valueStart..<entry.valueEnd], as: UTF8.self)
    }

    /// The values of every field named `name`, in order.
    /// - Parameter name: The field name.
    public func values(named name: String) -> [String] {
        var values: [String] = []
        forEachEntry(named: name) { entry in
            values.append(String(decoding: storage[entry.valueStart..<entry.valueEnd], as: UTF8.self))
            return true
        }
        return values
    }

    /// How many field lines are named `name`.
    /// - Parameter name: The field name.
    public func count(named name: String) -> Int {
        var count = 0
        forEachEntry(named: name) { _ in
            count += 1
            return true
        }
        return count
    }

    /// Whether at least one field line is named `name`.
    /// - Parameter name: The field name.
    public func contains(named name: String) -> Bool {
        var found = false
        forEachEntry(named: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// The value bytes of every field named `name`, in order, without copying (and without allocating for a
    /// name that appears at most once).
    package func valueSlices(named name: String) -> FieldValues {
        var values = FieldValues(storage: storage)
        forEachEntry(named: name) { entry in
            values.append(entry.valueStart..<entry.valueEnd)
            return true
        }
        return values
    }

    /// ``valueSlices(named:)`` for a name located when the fields were made: no walk over the names unless it
    /// appears more than once.
    func valueSlices(_ name: KnownFieldName) -> FieldValues {
        var values = FieldValues(storage: storage)
        switch known.lookup(name) {
        case .none:
            break
        case .one(let index):
            let entry = entries[index]
            values.append(entry.valueStart..<entry.valueEnd)
        case .several:
            let text = name.text
            return valueSlices(named: String(decoding: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), as: UTF8.self))
        }
        return values
    }

    /// Whether the head has no Content-Length, or one line of it spelled as its number is written in decimal
    /// (no leading zero, sign, space or list): what can be relayed as received without a recipient that reads
    /// `010` as octal, or `1, 1` as a list, taking another length.
    package var contentLengthIsCanonical: Bool {
        switch known.lookup(.contentLength) {
        case .none:
            return true
        case .several:
            return false
        case .one(let index):
            let entry = entries[index]
            let count = entry.valueEnd - entry.valueStart
            guard count > 0, count <= 19 else { return false }
            return storage.withUnsafeBufferPointer { stored in
                if count > 1, stored[entry.valueStart] == UInt8(ascii: "0") { return false }
                for position in entry.valueStart..<entry.valueEnd
                where stored[position] < UInt8(ascii: "0") || stored[position] > UInt8(ascii: "9") {
                    return false
                }
                return true
            }
        }
    }

    /// Whether a field line has the known name `name`.
    func contains(_ name: KnownFieldName) -> Bool {
        if case .none = known.lookup(name) { return false }
        return true
    }

    /// Calls `body` with each entry named `name` (ASCII case ignored), in order, while it returns true. The name's
    /// bytes and the storage are reached once per call, not once per entry.
    private func forEachEntry(named name: String, _ body: (Entry) -> Bool) {
        guard nameLengths & Self.lengthBit(name.utf8.count) != 0 else { return }
        var name = name
        name.withUTF8 { wanted in
            storage.withUnsafeBufferPointer { stored in
                for entry in entries where entry.nameEnd - entry.nameStart == wanted.count {
                    var index = entry.nameStart
                    var matches = true
                    for byte in wanted {
                        if ByteClass.lowercased(stored[index]) != ByteClass.lowercased(byte) {
                            matches = false
                            break
                        }
                        index += 1
                    }
                    if matches, !body(entry) { return }
                }
            }
        }
    }

    /// The bytes the fields are stored in: at least what ``write(into:removing:)`` writes for them, less the
    /// four bytes of `": "` and CRLF per field (an estimate for reserving capacity).
    var byteCount: Int { storage.count + 4 * entries.count }

    /// The index of the first field whose name bytes, as received, satisfy `predicate`.
    package func firstIndex(whereName predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int? {
        storage.withUnsafeBufferPointer { stored in
            entries.firstIndex { predicate(UnsafeBufferPointer(rebasing: stored[$0.nameStart..<$0.nameEnd])) }
        }
    }

    /// The ASCII-lowercased name of field `index`.
    func lowercasedName(at index: Int) -> String {
        let entry = entries[index]
        return String(decoding: storage[entry.nameStart..<entry.nameEnd].lazy.map(ByteClass.lowercased), as: UTF8.self)
    }

    /// Whether `entry`'s name equals `name`, ignoring ASCII case.
    private func nameMatches(_ entry: Entry, _ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == entry.nameEnd - entry.nameStart else {
            return false
        }
        // Names are native Strings (literals, lowercased options): compare their bytes without the UTF-8 view's
        // per-byte index checks.
        if let matches = utf8.withContiguousStorageIfAvailable({ bytes in
            storage.withUnsafeBufferPointer { stored in
                var index = entry.nameStart
                for byte in bytes {
                    if ByteClass.lowercased(stored[index]) != ByteClass.lowercased(byte) { return false }
                    index += 1
                }
                return true
            }
        }) {
            return matches
        }
        var index = entry.nameStart
        for byte in utf8 {
            if ByteClass.lowercased(storage[index]) != ByteClass.lowercased(byte) {
                return false
            }
            index += 1
        }
        return true
    }

    /// Appends `Name: value CRLF` for every field whose name is not in `removing`.
    ///
    /// A received line already in that form (one space after the colon, no trailing whitespace) is its own
    /// output, so runs of such lines, adjacent as received, are copied in one piece.
    /// - Parameters:
    ///   - buffer: The buffer to append to.
    ///   - removing: Names to leave out (ASCII case ignored).
    public func write(into buffer: inout [UInt8], removing: FieldNameSet = []) {
        storage.withUnsafeBufferPointer { stored in
            var run = 0..<0  // received canonical lines not yet copied
            for entry in entries {
                let name = UnsafeBufferPointer(rebasing: stored[entry.nameStart..<entry.nameEnd])
                if removing.contains(name) { continue }
                let lineEnd = entry.valueEnd + 2
                if entry.valueStart == entry.nameEnd + 2, lineEnd <= stored.count,
                    stored[entry.nameEnd] == ByteClass.colon, stored[entry.nameEnd + 1] == ByteClass.sp,
                    stored[entry.valueEnd] == ByteClass.cr, stored[entry.valueEnd + 1] == ByteClass.lf
                {
                    if run.isEmpty || run.upperBound != entry.nameStart {
                        if !run.isEmpty { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: stored[run])) }
                        run = entry.nameStart..<lineEnd
                    } else {
                        run = run.lowerBound..<lineEnd
                    }
                    continue
                }
                if !run.isEmpty {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: stored[run]))
                    run = 0..<0
                }
                buffer.append(contentsOf: name)
                buffer.append(ByteClass.colon)
                buffer.append(ByteClass.sp)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: stored[entry.valueStart..<entry.valueEnd]))
                buffer.append(ByteClass.cr)
                buffer.append(ByteClass.lf)
            }
            if !run.isEmpty { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: stored[run])) }
        }
    }
}

extension HTTPFields: RandomAccessCollection {
    /// The position of the first field.
    public var startIndex: Int { 0 }
    /// One past the last field.
    public var endIndex: Int { entries.count }

    /// The field at `position`.
    /// - Parameter position: A valid index.
    public subscript(position: Int) -> HTTPField {
        let entry = entries[position]
        return HTTPField(
            trustedName: String(decoding: storage[entry.nameStart..<entry.nameEnd], as: UTF8.self),
            valueBytes: Array(storage[entry.valueStart..<entry.valueEnd])
        )
    }
}

extension HTTPFields: Hashable {
    /// Two lists are equal when they hold the same names (exact bytes) and values, in the same order.
    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        guard lhs.entries.count == rhs.entries.count else {
            return false
        }
        for (left, right) in zip(lhs.entries, rhs.entries) {
            guard lhs.storage[left.nameStart..<left.nameEnd] == rhs.storage[right.nameStart..<right.nameEnd],
                lhs.storage[left.valueStart..<left.valueEnd] == rhs.storage[right.valueStart..<right.valueEnd]
            else {
                return false
            }
        }
        return true
    }

    /// Hashes the names and values in order.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.nameEnd - entry.nameStart)
            storage.withUnsafeBytes { raw in
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[entry.nameStart..<entry.nameEnd]))
                hasher.combine(entry.valueEnd - entry.valueStart)
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[entry.valueStart..<entry.valueEnd]))
            }
        }
    }
}

extension HTTPFields: ExpressibleByDictionaryLiteral {
    /// Creates a list from `name: value` pairs, kept in order (duplicates allowed).
    /// - Parameter elements: The pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (name, value) in elements {
            append(name: name, value: value)
        }
    }
}

extension HTTPField {
    /// Creates a field from bytes the parser has already validated.
    init(trustedName: String, valueBytes: [UInt8]) {
        self.name = trustedName
        self.valueBytes = valueBytes
    }
}
