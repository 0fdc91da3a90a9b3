import Testing

@testable import HTTP1

@Suite struct HTTPFieldsTests {
    @Test func lookupIgnoresASCIICaseOnly() {
        let fields: HTTPFields = ["Content-Type": "a", "X-K": "1", "x-k": "2"]
        #expect(fields.first(named: "content-type") == "a")
        #expect(fields.first(named: "CONTENT-TYPE") == "a")
        #expect(fields.values(named: "X-k") == ["1", "2"])
        #expect(fields.count(named: "x-K") == 2)
        #expect(fields.first(named: "Content-Typ") == nil)
        #expect(fields.first(named: "Content-Type ") == nil)
        #expect(fields.first(named: "Ｃontent-Type") == nil)
    }

    @Test func appendRemoveAndOrder() {
        var fields = HTTPFields()
        fields.append(name: "A", value: "1")
        fields.append(HTTPField(name: "B", valueBytes: [0xFF]))
        fields.append(name: "a", value: "3")
        #expect(fields.map(\.name) == ["A", "B", "a"])
        fields.removeAll(named: "A")
        #expect(fields.map(\.name) == ["B"])
        #expect(fields[0].valueBytes == [0xFF])
        #expect(fields[0].value == "\u{FFFD}")
    }

    @Test func equalityComparesNamesAndValuesNotStorage() {
        let parsed = HeadFeeding.requestHead("GET / HTTP/1.1\r\nA:   x  \r\nB: y\r\n\r\n")!.fields
        let built: HTTPFields = ["A": "x", "B": "y"]
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        let other: HTTPFields = ["a": "x", "B": "y"]
        #expect(parsed != other)
        var removed = parsed
        removed.removeAll(named: "b")
        #expect(removed == ["A": "x"])
    }

    @Test func fieldValidity() {
        #expect(HTTPField.isValidName("X-Forwarded-For"))
        #expect(!HTTPField.isValidName(""))
        #expect(!HTTPField.isValidName("X Y"))
        #expect(!HTTPField.isValidName("X:Y"))
        #expect(HTTPField.isValidValue("1.1 partgate"))
        #expect(HTTPField.isValidValue(""))
        #expect(!HTTPField.isValidValue("a\r\nInjected: 1"))
        #expect(!HTTPField.isValidValue("a\u{0}"))
        #expect(!HTTPField.isValidValue(" padded"))
        #expect(!HTTPField.isValidValue("padded\t"))
        #expect(HTTPField.isValidValue([0x61, 0x80, 0xFF]))
    }

    @Test func writesWireForm() {
        let fields: HTTPFields = ["A": "1", "Connection": "close", "B": "2"]
        var buffer: [UInt8] = []
        fields.write(into: &buffer, removing: ["connection"])
        #expect(buffer == Array("A: 1\r\nB: 2\r\n".utf8))
    }

    /// Parsed lines already in wire form are copied in runs; the others are rewritten one by one. Either way the
    /// output is what writing each field alone gives.
    @Test func writesParsedFieldsInWireFormWhateverTheirSpacing() throws {
        let head = try #require(HeadFeeding.requestHead(
            "GET / HTTP/1.1\r\nHost: a\r\nX-One: 1\r\nConnection: close\r\nX-Two:2\r\nX-Three:  3 \r\n"
                + "X-Empty:\r\nX-Four: 4\t\r\nX-Five: 5\r\nX-Six: six 6\r\n\r\n"))
        var buffer: [UInt8] = []
        head.fields.write(into: &buffer, removing: ["connection"])
        let expected = "Host: a\r\nX-One: 1\r\nX-Two: 2\r\nX-Three: 3\r\nX-Empty: \r\nX-Four: 4\r\nX-Five: 5\r\n"
            + "X-Six: six 6\r\n"
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
        var appended = head.fields
        appended.append(name: "X-Added", value: "v")
        buffer = []
        appended.write(into: &buffer, removing: ["x-one", "x-five"])
        #expect(
            String(decoding: buffer, as: UTF8.self)
                == "Host: a\r\nConnection: close\r\nX-Two: 2\r\nX-Three: 3\r\nX-Empty: \r\nX-Four: 4\r\n"
                + "X-Six: six 6\r\nX-Added: v\r\n")
    }
}
