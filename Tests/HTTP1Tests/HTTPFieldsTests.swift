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

    /// Known names are located when the fields are made: every lookup of one must give what walking the names
    /// gives, whatever the case, for names that share a known name's length, for repeated names, and after the
    /// list changed.
    @Test func knownNameLookupsMatchTheWalk() throws {
        func values(_ fields: HTTPFields, _ name: KnownFieldName) -> [String] {
            fields.valueSlices(name).map { String(decoding: $0, as: UTF8.self) }
        }
        func walked(_ fields: HTTPFields, _ name: KnownFieldName) -> [String] {
            fields.values(named: "\(name.text)")
        }
        let head = try #require(HeadFeeding.requestHead(
            "POST / HTTP/1.1\r\nHOST: a\r\nAccept: x\r\nExpecT: 100-continue\r\nUser-Agent: u\r\n"
                + "content-TYPE: t\r\nContent-Lengtx: 1\r\nContent-Length: 5\r\nTransfer-Encodinh: z\r\n"
                + "Connection: a\r\nconnection: b\r\nUpgradf: no\r\nH^st: no\r\nContent~Type: no\r\n\r\n"))
        var fields = head.fields
        #expect(values(fields, .host) == ["a"])
        #expect(values(fields, .expect) == ["100-continue"])
        #expect(values(fields, .contentType) == ["t"])
        #expect(values(fields, .contentLength) == ["5"])
        #expect(values(fields, .transferEncoding) == [])
        #expect(values(fields, .connection) == ["a", "b"])
        #expect(values(fields, .upgrade) == [])
        #expect(!fields.contains(.upgrade) && fields.contains(.host))
        for name in KnownFieldName.allCases { #expect(values(fields, name) == walked(fields, name), "\(name)") }
        fields.removeAll(named: "connection")
        fields.removeAll(named: "host")
        fields.append(name: "Upgrade", value: "websocket")
        fields.append(name: "HOST", value: "b")
        fields.append(name: "Transfer-Encoding", value: "chunked")
        fields.append(name: "transfer-encoding", value: "gzip")
        #expect(values(fields, .connection) == [])
        #expect(values(fields, .host) == ["b"])
        #expect(values(fields, .upgrade) == ["websocket"])
        #expect(values(fields, .transferEncoding) == ["chunked", "gzip"])
        for name in KnownFieldName.allCases { #expect(values(fields, name) == walked(fields, name), "\(name)") }
    }

    /// The word-at-a-time comparison against every spelling: each known name in random case matches, and a name
    /// of the same length that differs in any one byte (any other token character) does not.
    @Test func knownNameRecognitionIsExact() {
        var generator = SplitMix64(seed: 7)
        for name in KnownFieldName.allCases {
            let lower = Array("\(name.text)".utf8)
            for _ in 0..<8 {
                let spelled = lower.map { byte in
                    generator.next() & 1 == 0 || byte == UInt8(ascii: "-") ? byte : byte - 32
                }
                #expect(spelled.withUnsafeBufferPointer(KnownFieldName.of) == name)
            }
            for position in lower.indices {
                for value in 0...255 where ByteClass.isTChar(UInt8(value)) && ByteClass.lowercased(UInt8(value)) != lower[position] {
                    var changed = lower
                    changed[position] = UInt8(value)
                    #expect(changed.withUnsafeBufferPointer(KnownFieldName.of) == nil, "\(name) \(position) \(value)")
                }
            }
        }
        #expect(Array("accept".utf8).withUnsafeBufferPointer(KnownFieldName.of) == nil)
        #expect(Array("hosts".utf8).withUnsafeBufferPointer(KnownFieldName.of) == nil)
    }
}
