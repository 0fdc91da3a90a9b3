import Testing

@testable import HTTP1

@Suite struct HTTP1ErrorTests {
    @Test func namesAreUniqueStableSnakeCase() {
        let names = HTTP1Error.Code.allCodes.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(
                !name.isEmpty
                    && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F },
                "\(name)"
            )
        }
        #expect(HTTP1Error.Code.obsFold.name == "obs_fold")
        #expect(HTTP1Error.Code.bareLF.name == "bare_lf")
        #expect(HTTP1Error.Code.bareCR.name == "bare_cr")
        #expect(HTTP1Error.Code.contentLengthWithTransferEncoding.name == "content_length_with_transfer_encoding")
    }

    @Test func everyCodeHasASummaryAndAnHTTPStatus() {
        let statuses: Set<Int> = [400, 414, 417, 431, 501, 502, 505]
        for code in HTTP1Error.Code.allCodes {
            #expect(!code.summary.isEmpty)
            #expect(statuses.contains(code.suggestedStatus), "\(code)")
        }
        #expect(HTTP1Error.Code.obsFold.suggestedStatus == 400)
        #expect(HTTP1Error.Code.fieldLineTooLong.suggestedStatus == 431)
        #expect(HTTP1Error.Code.unknownMethod.suggestedStatus == 501)
        #expect(HTTP1Error.Code.invalidStatusLine.suggestedStatus == 502)
    }

    @Test func descriptionAndEquality() {
        #expect(HTTP1Error(.bareLF, offset: 17).description == "bare_lf@17")
        #expect(HTTP1Error(.missingHost).description == "missing_host")
        #expect(HTTP1Error(.bareLF, offset: 1) != HTTP1Error(.bareLF, offset: 2))
        #expect(HTTP1Error(.bareLF, offset: 1).suggestedStatus == 400)
    }
}
