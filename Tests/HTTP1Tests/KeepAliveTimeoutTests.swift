import HTTP1
import Testing

/// `Keep-Alive: timeout=N` as servers send it, and what is not a timeout.
@Suite struct KeepAliveTimeoutTests {
    @Test(arguments: [
        (["timeout=5"], 5), (["timeout=5, max=100"], 5), (["max=100, timeout=15"], 15), (["Timeout = 3"], 3),
        (["timeout=\"7\""], 7), (["max=2", "timeout=4"], 4), (["timeout=x, timeout=9"], 9),
        (["timeout="], nil), (["timeout=-1"], nil), (["timeout=1e3"], nil), (["max=5"], nil), ([], nil),
        (["timeout=99999999999"], nil),
    ] as [([String], Int?)])
    func seconds(values: [String], expected: Int?) {
        #expect(KeepAliveTimeout.seconds(in: values) == expected)
    }
}
