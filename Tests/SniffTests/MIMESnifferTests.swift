import Sniff
import Testing

@Suite struct MIMESnifferTests {
    /// Sniffs `bytes` (a whole resource unless `complete` is false).
    func sniff(_ bytes: [UInt8], complete: Bool = true) -> SniffResult {
        MIMESniffer.sniff(bytes, complete: complete)
    }

    @Test(arguments: SignatureCase.all)
    func recognisesSignature(_ fixture: SignatureCase) {
        let result = sniff(fixture.bytes)
        #expect(result.type == fixture.type)
        #expect(result.signature == fixture.signature)
        #expect(result.isFinal, "a complete resource always gets a final answer")
        #expect(SniffedType.all.contains(result.type))
    }

    @Test(arguments: SignatureCase.all)
    func signatureSurvivesTrailingBytesAndTheRawPointerEntryPoint(_ fixture: SignatureCase) {
        // Followed by more data of the same kind, the decision must not change (text stays text).
        let filler: UInt8 =
            fixture.type.category == .text || fixture.type.category == .markup
                || fixture.type.category == .script ? 0x20 : 0x00
        let longer = Fixture.padded(fixture.bytes, to: 2 * sniffWindowSize, with: filler)
        let result = longer.withUnsafeBytes { MIMESniffer.sniff($0, complete: true) }
        #expect(result.type == fixture.type)
        #expect(result.isFinal)
    }

    /// Whenever a prefix gets a final answer, every resource that starts with that prefix gets the same one.
    @Test(arguments: SignatureCase.all)
    func finalAnswersDoNotChangeWithMoreBytes(_ fixture: SignatureCase) {
        let window = Array(fixture.bytes.prefix(sniffWindowSize))
        let continuations: [(bytes: [UInt8], complete: Bool)] = [
            (fixture.bytes, true),
            (Fixture.padded(window, to: sniffWindowSize, with: 0x00), false),
            (Fixture.padded(window, to: sniffWindowSize, with: 0x20), false),
        ]
        let answers = continuations.map { sniff($0.bytes, complete: $0.complete) }
        for answer in answers { #expect(answer.isFinal) }
        for length in 0...window.count {
            let early = sniff(Array(window.prefix(length)), complete: false)
            guard early.isFinal else { continue }
            for answer in answers {
                #expect(
                    early.type == answer.type && early.signature == answer.signature,
                    "prefix of \(length) bytes said \(early), a longer resource says \(answer)"
                )
            }
        }
    }

    @Test func everyResultTypeIsInTheCatalog() {
        let mimeTypes = SniffedType.all.map(\.mimeType)
        #expect(Set(mimeTypes).count == mimeTypes.count, "each catalog MIME type appears once")
        let covered = Set(SignatureCase.all.map(\.type))
        // Every catalog type except the ones only reachable by the rules tested elsewhere has a signature case.
        let untested = SniffedType.all.filter { !covered.contains($0) }.map(\.mimeType)
        let testedElsewhere = Set(
            [SniffedType.xlsx, .pptx].map(\.mimeType)
                + SniffedType.openDocumentTypes.filter { $0 != .odt }.map(\.mimeType)
        )
        #expect(Set(untested) == testedElsewhere)
    }

    @Test func scriptableTypesAreTheWHATWGOnes() {
        let scriptable = Set(SniffedType.all.filter(\.isScriptable).map(\.mimeType))
        #expect(scriptable == ["text/html", "text/xml", "application/xhtml+xml", "image/svg+xml", "application/pdf"])
        #expect(sniff(Fixture.ascii("<svg/>")).isScriptable)
        #expect(!sniff(Fixture.ascii("plain")).isScriptable)
    }

    @Test func emptyResource() {
        let complete = sniff([], complete: true)
        #expect(complete.type == .plainText)
        #expect(complete.signature == "empty")
        #expect(complete.isFinal)
        let pending = sniff([], complete: false)
        #expect(pending.type == .plainText)
        #expect(!pending.isFinal)
    }

    @Test func collectionOverloadsAgree() {
        let bytes = SignatureCase.peExecutable
        let fromArray = MIMESniffer.sniff(bytes, complete: true)
        let fromSlice = MIMESniffer.sniff(bytes[...], complete: true)
        let fromNonContiguous = MIMESniffer.sniff(bytes.lazy.map { $0 }, complete: true)
        let fromPointer = bytes.withUnsafeBytes { MIMESniffer.sniff($0, complete: true) }
        #expect(fromArray == fromSlice)
        #expect(fromArray == fromNonContiguous)
        #expect(fromArray == fromPointer)
        #expect(fromArray.mimeType == "application/x-msdownload")
        #expect(fromArray.category == .executable)
        #expect(fromArray.description == "application/x-msdownload (pe)")
    }
}
