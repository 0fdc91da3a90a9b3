import Policy
import Testing

@Suite("Addresses")
struct AddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", UInt16(8080), false), ("0.0.0.0:8443", "0.0.0.0", 8443, false),
        ("[::1]:8080", "::1", 8080, true), ("[::]:0", "::", 0, true), ("10.1.2.3:65535", "10.1.2.3", 65535, false),
        ("[2001:db8::1]:443", "2001:db8::1", 443, true), ("[::ffff:192.0.2.1]:80", "::ffff:192.0.2.1", 80, true),
    ])
    func parsesListenAddresses(text: String, host: String, port: UInt16, ipv6: Bool) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
        #expect((address.ip.family == .ipv6) == ipv6)
        #expect(address.description == text)
    }

    @Test(arguments: [
        ("localhost:8080", "not an IP address"), ("127.0.0.1", "has no port"), ("::1:8080", "in brackets"),
        ("[::1]8080", "expected ':port'"), ("[::1:8080", "missing ']'"), ("127.0.0.1:65536", "port '65536'"),
        ("127.0.0.1:", "port ''"), ("127.0.0.1:08", "port '08'"), ("127.0.0.1:http", "port 'http'"),
        ("256.0.0.1:80", "not an IP address"), ("010.0.0.1:80", "not an IP address"), ("[127.0.0.1]:80", "IPv6"),
        ("[fe80::1%eth0]:80", "not an IP address"), ("1.2.3:80", "not an IP address"),
    ])
    func refusesMalformedListenAddresses(text: String, reason: String) {
        #expect {
            try ListenAddress(parsing: text)
        } throws: { error in
            let error = error as? ConfigurationValueError
            return error?.code == .invalidAddress && error?.reason.contains(reason) == true
        }
    }

    @Test(arguments: [
        ("::1", true), ("::", true), ("1::", true), ("1:2:3:4:5:6:7:8", true), ("1:2:3:4:5:6:7::", true),
        ("::2:3:4:5:6:7:8", true), ("1:2:3:4:5:6:1.2.3.4", true), ("1:2:3:4:5:6:7:8:9", false),
        ("1:2:3:4:5:6:7", false), ("1::2::3", false), (":::", false), ("12345::", false), ("g::", false),
        ("1:2:3:4:5:6:7:8::", false), ("::1.2.3.4:5", false), ("", false), ("1.2.3.4", true), ("01.2.3.4", false),
    ])
    func validatesIPLiterals(text: String, valid: Bool) {
        #expect((IPAddressLiteral(text) != nil) == valid)
    }

    @Test func comparesIPLiteralsByValue() throws {
        #expect(IPAddressLiteral("::1") == IPAddressLiteral("0:0:0:0:0:0:0:1"))
        #expect(IPAddressLiteral("::ffff:1.2.3.4") == IPAddressLiteral("::ffff:102:304"))
        #expect(IPAddressLiteral("::1") != IPAddressLiteral("::2"))
        #expect(try #require(IPAddressLiteral("0.0.0.0")).isUnspecified)
        #expect(try #require(IPAddressLiteral("::")).isUnspecified)
    }

    @Test func detectsConflictingListenAddresses() throws {
        func conflict(_ left: String, _ right: String) throws -> Bool {
            try ListenAddress(parsing: left).conflicts(with: ListenAddress(parsing: right))
        }
        #expect(try conflict("127.0.0.1:8080", "127.0.0.1:8080"))
        #expect(try conflict("0.0.0.0:8080", "127.0.0.1:8080"))
        #expect(try conflict("127.0.0.1:8080", "0.0.0.0:8080"))
        #expect(try conflict("[::1]:8080", "[0:0::1]:8080"))
        #expect(try conflict("[::]:8080", "[::1]:8080"))
        #expect(try !conflict("127.0.0.1:8080", "127.0.0.2:8080"))
        #expect(try !conflict("127.0.0.1:8080", "127.0.0.1:8081"))
        #expect(try !conflict("127.0.0.1:0", "127.0.0.1:0"))
        #expect(try !conflict("0.0.0.0:8080", "[::1]:8080"))
    }

    @Test(arguments: [
        ("https://uploads.internal:8443", UpstreamURL.Scheme.https, "uploads.internal", UInt16(8443)),
        ("https://uploads.internal", .https, "uploads.internal", 443), ("http://backend", .http, "backend", 80),
        ("HTTPS://Uploads.Internal/", .https, "uploads.internal", 443),
        ("http://10.0.0.5:9000", .http, "10.0.0.5", 9000),
        ("https://[::1]:8443", .https, "::1", 8443), ("https://[2001:db8::5]", .https, "2001:db8::5", 443),
        ("http://upload_svc.default.svc:80", .http, "upload_svc.default.svc", 80),
    ])
    func parsesUpstreamURLs(text: String, scheme: UpstreamURL.Scheme, host: String, port: UInt16) throws {
        let url = try UpstreamURL(parsing: text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(try UpstreamURL(parsing: url.description) == url)
    }

    @Test(arguments: [
        ("uploads.internal:8443", "is not a URL"), ("ftp://x", "scheme must be https or http"),
        ("https://x/api", "no path, query or fragment"), ("https://x?a=1", "no path, query or fragment"),
        ("https://user@x", "user information"), ("https://x:0", "port '0'"), ("https://x:99999", "port '99999'"),
        ("https://", "not a valid host"), ("https://-x-", "not a valid host"), ("https://[::1", "missing ']'"),
        ("https://[1.2.3.4]", "not an IPv6 address"), ("https://a b", "not a valid host"),
    ])
    func refusesUpstreamURLsWithPathsOrOddParts(text: String, reason: String) {
        #expect {
            try UpstreamURL(parsing: text)
        } throws: { error in
            let error = error as? ConfigurationValueError
            return error?.code == .invalidURL && error?.reason.contains(reason) == true
        }
    }

    @Test func upstreamTLSDefaultsFollowTheURL() throws {
        let https = UpstreamConfiguration(url: try UpstreamURL(parsing: "https://uploads.internal:8443"))
        #expect(https.effectiveTLS == UpstreamTLSConfiguration())
        #expect(https.effectiveTLS?.verify == true)
        #expect(https.serverName == "uploads.internal")
        #expect(https.connectTimeout == .seconds(5))
        #expect(https.responseTimeout == .seconds(60))
        #expect(https.maxIdleConnections == 32)
        var named = https
        named.tls = UpstreamTLSConfiguration(serverName: "other.example")
        #expect(named.serverName == "other.example")
        let ip = UpstreamConfiguration(url: try UpstreamURL(parsing: "https://10.0.0.1"))
        #expect(ip.serverName == nil)
        let plain = UpstreamConfiguration(url: try UpstreamURL(parsing: "http://backend:8080"))
        #expect(plain.effectiveTLS == nil)
        #expect(plain.serverName == nil)
    }
}
