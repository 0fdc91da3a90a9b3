import Foundation
import HTTP1
import Multipart
import Testing

/// `decisions.json` holds exactly one well-formed decision for every corpus case, and nothing else.
@Suite("Conformance: decisions cover the corpora")
struct DecisionCoverageTests {
    /// The case names each corpus holds, read from the corpus itself.
    static func corpusCases() throws -> [String: Set<String>] {
        let files = FileManager.default
        let pythonMultipart = try files.contentsOfDirectory(
            atPath: ConformancePaths.corpusFile("python-multipart", "http").path
        ).filter { $0.hasSuffix(".http") }.map { String($0.dropLast(".http".count)) }
        let formidableRoot = ConformancePaths.corpusFile("formidable", "").path
        let formidableRequests = try #require(files.enumerator(atPath: formidableRoot))
            .compactMap { $0 as? String }.filter { $0.hasPrefix("http/") && $0.hasSuffix(".http") }
            .map { String($0.dropLast(".http".count)) }
        let vectors = try FormidableCorpusTests.vectors().map { FormidableCorpusTests.vectorPrefix + $0.id }
        return [
            "python-multipart": Set(pythonMultipart),
            "werkzeug": Set(try WerkzeugCorpusTests.captures().map(\.caseName)),
            "busboy": Set(try BusboyCorpusTests.cases().map(\.id)),
            "formidable": Set(formidableRequests + vectors),
            "waffled": Set(try WaffledCorpusTests.requests().map(\.caseName)),
        ]
    }

    @Test func everyCorpusCaseHasExactlyOneDecision() throws {
        let decisions = try Decisions.load()
        let corpora = try Self.corpusCases()
        let expectedCounts = ["python-multipart": 30, "werkzeug": 6, "busboy": 27, "formidable": 28, "waffled": 12]
        for (corpus, count) in expectedCounts {
            let names = decisions.filter { $0.corpus == corpus }.map(\.name)
            #expect(names.count == count, "\(corpus)")
            #expect(Set(names).count == names.count, "\(corpus): duplicate decisions")
            #expect(Set(names) == corpora[corpus], "\(corpus)")
        }
        #expect(Set(decisions.map(\.corpus)) == Set(expectedCounts.keys))
        #expect(decisions.count == Decisions.all.count)
    }

    @Test func fullRequestsAndOnlyThemHaveAReplayDecision() throws {
        for decision in try Decisions.load() {
            let isRequest = decision.corpus == "waffled" || decision.name.hasPrefix("http/")
            #expect((decision.replay != nil) == isRequest, "\(decision.testDescription)")
            if let replay = decision.replay {
                #expect((replay.contentLength == .corrected) == (replay.asSent != nil), "\(decision.testDescription)")
            }
        }
    }

    /// Every flag, action, limit and reason named in a decision exists, so a typo cannot pass unnoticed.
    @Test func decisionsNameOnlyRealChecks() throws {
        let http1Codes = Set(HTTP1Error.Code.allCodes.map { "http1:" + $0.name })
        let limits = Set(MultipartLimit.allCases.map { "limit_" + $0.rawValue })
        for decision in try Decisions.load() {
            for run in decision.runs {
                _ = try run.makeStrictness()
                _ = try run.makeLimits()
                switch run.verdict {
                case .accept:
                    break
                case .normalize(let flags):
                    #expect(!flags.isEmpty, "\(decision.testDescription)")
                    for flag in flags {
                        #expect(StrictFlag(rawValue: flag) != nil, "\(decision.testDescription): \(flag)")
                    }
                case .reject(let reason):
                    let known =
                        StrictFlag(rawValue: reason) != nil || limits.contains(reason)
                        || http1Codes.contains(reason) || reason == "content_type_missing"
                    #expect(known, "\(decision.testDescription): \(reason)")
                }
                #expect(
                    run.partsCheck == .explicit ? run.expectParts != nil : run.expectParts == nil,
                    "\(decision.testDescription): expect_parts goes with parts_check: explicit")
            }
            for variant in decision.variants {
                #expect(variant.why != nil, "\(decision.testDescription): a variant needs a why")
                let changed =
                    variant.strictness != decision.primary.strictness || variant.limits != decision.primary.limits
                #expect(changed, "\(decision.testDescription): a variant must change the configuration")
            }
        }
    }
}
