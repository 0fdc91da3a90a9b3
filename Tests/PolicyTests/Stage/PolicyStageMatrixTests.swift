import Multipart
import Sniff
import Testing

@testable import Policy

/// Every action at every decision point, each run whole, byte by byte and split at every offset, with the
/// part under test between two plain fields.
@Suite("PolicyStage action × decision point")
struct PolicyStageMatrixTests {
    enum Point: String, CaseIterable, Sendable {
        /// Decided from the head: a field-name match.
        case head
        /// Decided when the window fills: a sniffed-type match on a part longer than the window.
        case sniffWindowFull = "sniff-window-full"
        /// Decided at the part's end: a sniffed-type match on a part shorter than the window.
        case sniffPartEnd = "sniff-part-end"
        /// Decided when the part passes max_bytes.
        case size
        /// Decided at the part's end by validation.
        case end
    }

    enum Action: String, CaseIterable, Sendable {
        /// Forward with a new name, filename, header and type.
        case modify
        case strip
        case reject
    }

    enum Expected: Equatable {
        case forwarded(PartHead, [UInt8])
        case stripped
        case rejected(Int, PolicyRejection.Reason)
    }

    struct Case: Sendable, CustomStringConvertible {
        var point: Point
        var action: Action
        var description: String { "\(action.rawValue) at \(point.rawValue)" }
    }

    static let cases = Point.allCases.flatMap { point in Action.allCases.map { Case(point: point, action: $0) } }

    static let rename = Rule.Rename(field: Build.template("f{index}"), filename: Build.template("{uuid}{ext}"))

    /// The rule set, the tested part's data and the expected result for a case.
    static func scenario(_ testCase: Case) -> ([Rule], [UInt8], Expected) {
        let small = FileFixtures.png()
        let large = FileFixtures.png(idatBytes: 3000)
        let renamed = PartHead(
            index: 1, name: "f1", filename: "uuid-1.png", contentType: "image/png",
            headers: [PartHeader(name: "X-Checked", value: "yes")])
        let header = [Rule.HeaderField(name: "X-Checked", value: "yes")]
        func byType(_ data: [UInt8]) -> ([Rule], [UInt8], Expected) {
            let match = RuleMatch(sniffedType: Build.types("image/png"))
            switch testCase.action {
            case .modify:
                return (
                    [Rule(name: "t", match: match, rename: rename, setHeaders: header)], data, .forwarded(renamed, data)
                )
            case .strip:
                return ([Rule(name: "t", match: match, strip: true)], data, .stripped)
            case .reject:
                return ([Rule(name: "t", match: match, reject: .init(status: 422))], data, .rejected(422, .rule))
            }
        }
        switch testCase.point {
        case .head:
            let match = RuleMatch(field: Build.names("upload"))
            switch testCase.action {
            case .modify:
                return (
                    [Rule(name: "t", match: match, rename: rename, setHeaders: header)], large,
                    .forwarded(renamed, large)
                )
            case .strip:
                return ([Rule(name: "t", match: match, strip: true)], large, .stripped)
            case .reject:
                return ([Rule(name: "t", match: match, reject: .init(status: 422))], large, .rejected(422, .rule))
            }
        case .sniffWindowFull:
            return byType(large)
        case .sniffPartEnd:
            return byType(small)
        case .size:
            let upload = RuleMatch(field: Build.names("upload"))
            let cap: Int64 = 1000
            switch testCase.action {
            case .modify:
                let rule = Rule(
                    name: "t", match: upload, rename: rename, setHeaders: header, maxBytes: cap, onExceed: .truncate)
                return ([rule], large, .forwarded(renamed, Array(large[0..<Int(cap)])))
            case .strip:
                return ([Rule(name: "t", match: upload, maxBytes: cap, onExceed: .strip)], large, .stripped)
            case .reject:
                return (
                    [Rule(name: "t", match: upload, maxBytes: cap, onExceed: .reject)], large, .rejected(413, .tooLarge)
                )
            }
        case .end:
            let upload = RuleMatch(field: Build.names("upload"))
            let polyglot = small + FileFixtures.zip
            switch testCase.action {
            case .modify:
                let sniff = SniffRule(allow: Build.types("image/png"), setContentType: true, validate: true)
                return (
                    [Rule(name: "t", match: upload, rename: rename, setHeaders: header, sniff: sniff)], small,
                    .forwarded(renamed, small)
                )
            case .strip:
                let sniff = SniffRule(onMismatch: .strip, validate: true)
                return ([Rule(name: "t", match: upload, sniff: sniff)], polyglot, .stripped)
            case .reject:
                let rule = Rule(name: "t", match: upload, sniff: SniffRule(validate: true))
                return ([rule], polyglot, .rejected(415, .invalidStructure))
            }
        }
    }

    /// The rule the plain fields around the tested part match (and only they): pass.
    static let plain = Rule(name: "plain", match: RuleMatch(field: Build.names("before", "after")))

    /// The tested part, with `data`, between two plain fields.
    static func body(_ data: [UInt8]) -> FormBody {
        FormBody([
            FormPart("before", text: "1"),
            FormPart("upload", filename: "photo.png", type: "application/octet-stream", data),
            FormPart("after", text: "2"),
        ])
    }

    @Test(arguments: cases)
    func actionAtDecisionPoint(testCase: Case) throws {
        let (rules, data, expected) = Self.scenario(testCase)
        let run = try PolicyHarness.runEverySplit(Build.route([Self.plain] + rules), Self.body(data))
        switch expected {
        case .forwarded(let head, let bytes):
            #expect(run.rejection == nil && run.ended)
            #expect(run.parts.map(\.head.name) == ["before", head.name, "after"])
            #expect(
                run.parts[1].head
                    == PartHead(
                        index: 1, name: head.name, filename: head.filename,
                        contentType: testCase.point == .end ? "image/png" : "application/octet-stream",
                        headers: head.headers, offset: run.parts[1].head.offset))
            #expect(run.parts[1].data == bytes)
            #expect(run.records[1].decision == (testCase.point == .size ? .truncate : .pass))
            #expect(run.records[1].digest == PolicyHarness.digest(bytes))
        case .stripped:
            #expect(run.rejection == nil && run.ended)
            #expect(run.parts.map(\.head.name) == ["before", "after"])
            #expect(run.records.map(\.decision) == [.pass, .strip, .pass])
            #expect(run.records[1].rule == "t" && run.records[1].forwardedBytes == 0)
        case .rejected(let status, let reason):
            #expect(run.rejection?.status == status && run.rejection?.reason == reason)
            #expect(run.rejection?.rule == "t" && run.rejection?.partIndex == 1)
            #expect(run.parts.map(\.head.name).first == "before")
            #expect(run.records.map(\.decision) == [.pass, .reject])
        }
    }
}
