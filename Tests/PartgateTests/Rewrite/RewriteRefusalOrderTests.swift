import Testing

/// `partgate rewrite` answers the refusal that comes first in the body, as the engine does (see
/// `ProxyRefusalOrderTests`): a disallowed charset in part 0 before a delimiter followed by garbage is `charset`.
@Suite("partgate rewrite: refusal order")
struct RewriteRefusalOrderTests {
    @Test func policyRefusalEarlierInTheBodyWinsOverALaterSyntaxError() throws {
        let body = Array(
            ("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain; charset=utf-7\r\n"
                + "\r\nx\r\n--b0undary garbage\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\ny\r\n--b0undary--\r\n")
                .utf8)
        let request = RawRequest.post("/upload", contentType: "multipart/form-data; boundary=b0undary", body: body)
        let result = try RawRequest.rewrite(request, config: "gateway.yaml")
        let answer = try RewritePolicyImagesTests.refusal(result)
        #expect(answer.status == 415, "stdout: \(result.stdout)")
        #expect(answer.json?["flag"] as? String == "charset")
    }
}
