import Policy
import Testing

@Suite("NameTemplate")
struct NameTemplateTests {
    static let values = NameTemplate.Values(
        filename: "me.png", stem: "me", ext: ".png", field: "avatar",
        uuid: "0f8fad5b-d9cb-469f-a165-70867728950e", index: 3)

    @Test(arguments: [
        ("{uuid}{ext}", "0f8fad5b-d9cb-469f-a165-70867728950e.png"),
        ("upload-{index}-{stem}{ext}", "upload-3-me.png"), ("{field}_{filename}", "avatar_me.png"),
        ("fixed.bin", "fixed.bin"), ("{{literal}}-{index}", "{literal}-3"), ("x}}y", "x}y"),
    ])
    func rendersPlaceholders(template: String, expected: String) throws {
        #expect(try NameTemplate(template).render(Self.values) == expected)
    }

    @Test func keepsSegmentsAndPlaceholdersInOrder() throws {
        let template = try NameTemplate("a{stem}-{ext}")
        #expect(template.segments == [.literal("a"), .placeholder(.stem), .literal("-"), .placeholder(.ext)])
        #expect(template.placeholders == [.stem, .ext])
        #expect(template.literalText == "a-")
        #expect(template.description == "a{stem}-{ext}")
    }

    @Test(arguments: [
        ("{extension}", "unknown placeholder '{extension}'"), ("{UUID}", "unknown placeholder '{UUID}'"),
        ("{}", "unknown placeholder '{}'"), ("{uuid", "without a closing '}'"), ("uuid}", "stray '}'"),
        ("", "empty template"),
    ])
    func refusesUnknownPlaceholdersAndUnbalancedBraces(template: String, reason: String) {
        #expect {
            try NameTemplate(template)
        } throws: { error in
            let error = error as? ConfigurationValueError
            return error?.code == .invalidTemplate && error?.reason.contains(reason) == true
        }
    }
}
