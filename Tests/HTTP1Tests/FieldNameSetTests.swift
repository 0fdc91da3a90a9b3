import Testing

@testable import HTTP1

@Suite struct FieldNameSetTests {
    private func contains(_ set: FieldNameSet, _ name: String) -> Bool {
        Array(name.utf8).withUnsafeBufferPointer { set.contains($0) }
    }

    @Test func matchesNamesIgnoringASCIICaseOnly() {
        let set: FieldNameSet = ["Connection", "te", "x-forwarded-for"]
        for name in ["connection", "CONNECTION", "Connection", "TE", "tE", "X-Forwarded-For"] {
            #expect(contains(set, name), "\(name)")
            #expect(set.contains(name), "\(name)")
        }
        // Same length, other bytes; prefixes and extensions; a byte that only lowercases by accident
        // (`\r` | 0x20 is `-`), and a non-ASCII byte.
        for name in ["connectioN2", "connectio", "tf", "t", "", "x-forwarded\rfor", "x-forwarded_for", "conn\u{E9}ction"] {
            #expect(!contains(set, name), "\(name)")
        }
    }

    @Test func keepsEachNameOnceAndUnites() {
        var set: FieldNameSet = ["a", "A", "bb"]
        #expect(set.count == 2)
        #expect(set.names == ["a", "bb"])
        let union = set.union(["BB", "ccc"])
        #expect(union.names == ["a", "bb", "ccc"])
        #expect(!set.contains("ccc"))
        set.formUnion(["ccc"])
        #expect(set == union)
        #expect(set == FieldNameSet(["ccc", "bb", "a"]))
        #expect(set != ["a", "bb"])
    }

    /// A name longer than 63 bytes shares the last length bit; the comparison still tells them apart.
    @Test func longNames() {
        let long = String(repeating: "x", count: 70)
        let set = FieldNameSet([long])
        #expect(set.contains(long.uppercased()))
        #expect(!set.contains(String(repeating: "x", count: 64)))
        #expect(!set.contains(String(repeating: "x", count: 71)))
    }

    @Test func writeLeavesOutTheSetsNamesInAnyCase() {
        let fields: HTTPFields = ["A": "1", "Connection": "close", "B": "2", "KEEP-ALIVE": "x", "keep-alivf": "y"]
        var buffer: [UInt8] = []
        fields.write(into: &buffer, removing: ["CONNECTION", "keep-alive"])
        #expect(buffer == Array("A: 1\r\nB: 2\r\nkeep-alivf: y\r\n".utf8))
        buffer = []
        fields.write(into: &buffer)
        #expect(buffer.count == "A: 1\r\nConnection: close\r\nB: 2\r\nKEEP-ALIVE: x\r\nkeep-alivf: y\r\n".utf8.count)
    }
}
