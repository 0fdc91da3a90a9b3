import Foundation
import Testing

@testable import HTTP1

@Suite("HTTPDate")
struct HTTPDateTests {
    @Test func theRFCsExampleAndEdgesOfTheCalendar() {
        #expect(HTTPDate.string(secondsSinceEpoch: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.string(secondsSinceEpoch: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(secondsSinceEpoch: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.string(secondsSinceEpoch: 4_133_980_799) == "Fri, 31 Dec 2100 23:59:59 GMT")
    }

    /// Against Foundation's formatter, one day and a few seconds at a time over 130 years.
    @Test func agreesWithFoundationEveryDay() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds: Int64 = 0
        while seconds < 4_102_444_800 {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let actual = HTTPDate.string(secondsSinceEpoch: seconds)
            if actual != expected {
                Issue.record("\(seconds): \(actual) != \(expected)")
                return
            }
            seconds += 86_400 + 3_607
        }
    }
}
