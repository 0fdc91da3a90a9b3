import Foundation
import ProxyEngine
import Testing

@Suite("JSONObjectWriter")
struct JSONObjectWriterTests {
    @Test func keepsOrderAndEscapes() throws {
        var object = JSONObjectWriter()
        object.add("name", "a\"b\\c\n\r\t\u{1}\u{7F}é☃")
        object.add("missing", nil as String?)
        object.add("count", 3)
        object.add("ok", true)
        var nested = JSONObjectWriter()
        nested.add("x", Int64(-1))
        object.add("nested", object: nested)
        object.add("list", objects: [nested, nested])
        object.add("tags", strings: ["a", "\"q\""])
        let text = object.finished
        #expect(text.hasPrefix("{\"name\":\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u007fé☃\",\"missing\":null,\"count\":3"))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["name"] as? String == "a\"b\\c\n\r\t\u{1}\u{7F}é☃")
        #expect((parsed?["list"] as? [Any])?.count == 2)
        #expect(parsed?["tags"] as? [String] == ["a", "\"q\""])
        #expect(JSONObjectWriter().finished == "{}")
    }

    /// Every ASCII character, alone, at the start, in the middle and at the end of a run, survives a JSON
    /// parser; characters that need no escape are written as they are.
    @Test func everyASCIICharacterRoundTrips() throws {
        for code in 0..<0x80 {
            let character = String(UnicodeScalar(UInt8(code)))
            for value in [character, character + "abc", "ab" + character + "cd", "abc" + character] {
                var object = JSONObjectWriter()
                object.add("v", value)
                let text = object.finished
                let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                #expect(parsed?["v"] as? String == value, "code \(code): \(text)")
                if code >= 0x20, code != 0x22, code != 0x5C, code != 0x7F {
                    #expect(text == "{\"v\":\"\(value)\"}")
                }
            }
        }
    }
}
