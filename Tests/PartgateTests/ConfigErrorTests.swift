import Testing

/// Each class of configuration error, with the exact `line:column: error: reason` lines `check` prints.
@Suite("partgate check errors")
struct ConfigErrorTests {
    static let cases: [ConfigErrorCase] = [
        ConfigErrorCase(
            name: "unknown key with a suggestion",
            yaml: CheckCommandTests.minimal + "workerz: 2\n",
            expected: ["10:1: error: unknown key 'workerz' in the configuration (did you mean 'workers'?)"]),
        ConfigErrorCase(
            name: "a host glob with a port never matches",
            yaml: ConfigErrorCase.minimal(route: "match: { host: example.com:8080 }\n"),
            expected: ["10:20: error: 'host': 'example.com:8080' is not a host glob (no port, path or spaces)"]),
        ConfigErrorCase(
            name: "a byte order mark is not content",
            yaml: "\u{FEFF}" + CheckCommandTests.minimal + "workerz: 2\n",
            expected: ["10:1: error: unknown key 'workerz' in the configuration (did you mean 'workers'?)"]),
        ConfigErrorCase(
            name: "a null header value is not the text ~",
            yaml: ConfigErrorCase.minimal(route: "rules: [{ name: n, set_headers: { X-Null: ~ } }]\n"),
            expected: [
                "10:47: error: 'set_headers' of rule 'n': the value of 'X-Null' is null; write '' for an empty "
                    + "value, or use remove_headers"
            ]),
        // A value reached through an alias is judged where the alias is, and reported there: the anchored
        // `match` is fine for the route, not for the rule that reuses it.
        ConfigErrorCase(
            name: "a problem reached through an alias is reported at the alias",
            yaml: ConfigErrorCase.minimal(
                route: "match: &m { path_prefix: /a }\nrules:\n  - { name: n, match: *m, strip: true }\n"),
            expected: [
                "12:27: error: unknown key 'path_prefix' in 'match' of rule 'n' (expected one of: field, filename, "
                    + "has_filename, declared_type, sniffed_type, extension) (in the value of alias '*m'; the value is "
                    + "at 10:17)"
            ]),
        ConfigErrorCase(
            name: "a bad anchored value is reported at the anchor and at each alias",
            yaml: ConfigErrorCase.minimal(
                route: "limits: &l { body_bytes: 1QB }\n")
                + "  - name: s\n    upstream: up\n    limits:   *l   # the same limits\n",
            expected: [
                "10:30: error: 'body_bytes': '1QB': unknown size unit 'QB' (expected B, KiB, MiB, GiB or TiB)",
                "13:15: error: 'body_bytes': '1QB': unknown size unit 'QB' (expected B, KiB, MiB, GiB or TiB) "
                    + "(in the value of alias '*l'; the value is at 10:30)",
            ]),
        ConfigErrorCase(
            name: "max_connections is auto or a positive number",
            yaml: CheckCommandTests.minimal + "max_connections: 0\n",
            expected: ["10:18: error: 'max_connections' must be between 1 and 10000000, found 0"]),
        ConfigErrorCase(
            name: "max_connections is not a word other than auto",
            yaml: CheckCommandTests.minimal + "max_connections: lots\n",
            expected: ["10:18: error: 'max_connections' must be 'auto' or a number, found 'lots'"]),
        ConfigErrorCase(
            name: "unknown nested key with a suggestion",
            yaml: ConfigErrorCase.minimal(route: "match: { path_prefx: /a }\n"),
            expected: ["10:14: error: unknown key 'path_prefx' in 'match' of route 'r' (did you mean 'path_prefix'?)"]),
        ConfigErrorCase(
            name: "unknown key listing the known ones",
            yaml: ConfigErrorCase.minimal(
                replacing: "    url: http://127.0.0.1:9\n",
                with: "    url: http://127.0.0.1:9\n    retries: 3\n"),
            expected: [
                "7:5: error: unknown key 'retries' in upstream 'up' (expected one of: url, tls, connect_timeout, "
                    + "response_timeout, max_idle_connections)"
            ]),
        ConfigErrorCase(
            name: "wrong type: a value for a list",
            yaml: ConfigErrorCase.minimal(
                replacing: "listeners:\n  - address: 127.0.0.1:0\n",
                with: "listeners: 127.0.0.1:0\n"),
            expected: ["2:12: error: 'listeners' must be a list, found '127.0.0.1:0'"]),
        ConfigErrorCase(
            name: "wrong type: yes is not a boolean",
            yaml: ConfigErrorCase.minimal(route: "report_only: yes\n"),
            expected: ["10:18: error: 'report_only' of route 'r' must be true or false, found 'yes'"]),
        ConfigErrorCase(
            name: "ambiguous size unit",
            yaml: ConfigErrorCase.minimal(route: "spool_memory: 8MB\n"),
            expected: [
                "10:19: error: 'spool_memory' of route 'r': '8MB': the unit 'MB' is ambiguous; write 8MiB or a "
                    + "byte count (8000000)"
            ]),
        ConfigErrorCase(
            name: "duration without a unit",
            yaml: ConfigErrorCase.minimal(
                replacing: "    url: http://127.0.0.1:9\n",
                with: "    url: http://127.0.0.1:9\n    connect_timeout: 5\n"),
            expected: ["7:22: error: 'connect_timeout': '5' needs a unit: ms, s, m or h (e.g. 5s)"]),
        ConfigErrorCase(
            name: "missing required key",
            yaml: ConfigErrorCase.minimal(replacing: "    upstream: up\n", with: ""),
            expected: ["8:5: error: missing required key 'upstream' in route 'r'"]),
        ConfigErrorCase(
            name: "route naming an undefined upstream",
            yaml: ConfigErrorCase.minimal(replacing: "    upstream: up\n", with: "    upstream: uq\n"),
            expected: ["9:15: error: route 'r' names undefined upstream 'uq' (did you mean 'up'?) (defined: 'up')"]),
        ConfigErrorCase(
            name: "duplicate rule names",
            yaml: ConfigErrorCase.minimal(
                route: "rules:\n  - name: a\n    strip: true\n  - name: a\n    strip: true\n"),
            expected: ["13:15: error: duplicate rule name 'a' in route 'r' (first at 11:15)"]),
        ConfigErrorCase(
            name: "invalid strict flag, action and combination",
            yaml: ConfigErrorCase.minimal(
                route: "strict: { preambel: normalize, delimiter_garbage: allow, lf_line: normalise }\n"),
            expected: [
                "10:15: error: unknown strict flag 'preambel' (did you mean 'preamble'?)",
                "10:55: error: strict flag 'delimiter_garbage' does not allow 'allow' (allowed: reject)",
                "10:71: error: unknown strict action 'normalise' for 'lf_line' (expected reject, normalize, allow) "
                    + "(did you mean 'normalize'?)",
            ]),
        ConfigErrorCase(
            name: "unknown template placeholder",
            yaml: ConfigErrorCase.minimal(
                route: "rules:\n  - name: a\n    rename: { filename: \"{uuid}{extension}\" }\n"),
            expected: [
                "12:29: error: 'filename' of 'rename' of rule 'a': '{uuid}{extension}': unknown placeholder "
                    + "'{extension}' (known: {filename} {stem} {ext} {field} {uuid} {index})"
            ]),
        ConfigErrorCase(
            name: "unsupported version stops early",
            yaml: ConfigErrorCase.minimal(replacing: "version: 1", with: "version: 2") + "future_key: 1\n",
            expected: ["1:10: error: unsupported configuration version 2: this partgate reads version 1"]),
        ConfigErrorCase(
            name: "missing version",
            yaml: ConfigErrorCase.minimal(replacing: "version: 1\n", with: ""),
            expected: ["1:1: error: missing required key 'version' (this partgate reads version: 1)"]),
        ConfigErrorCase(
            name: "empty routes",
            yaml: ConfigErrorCase.minimal(replacing: "routes:\n  - name: r\n    upstream: up\n", with: "routes: []\n"),
            expected: ["7:9: error: 'routes' must not be an empty list"]),
        ConfigErrorCase(
            name: "duplicate and overlapping listener addresses",
            yaml: ConfigErrorCase.minimal(
                replacing: "  - address: 127.0.0.1:0\n",
                with: "  - address: 0.0.0.0:8080\n  - address: 127.0.0.1:8080\n")
                + "admin: { address: 0.0.0.0:8080 }\n",
            expected: [
                "4:14: error: listener address 127.0.0.1:8080 overlaps 0.0.0.0:8080 (listener at 3:14)",
                "11:19: error: admin listener address 0.0.0.0:8080 repeats 0.0.0.0:8080 (listener at 3:14)",
            ]),
        ConfigErrorCase(
            name: "listener host name",
            yaml: ConfigErrorCase.minimal(replacing: "127.0.0.1:0", with: "localhost:8080"),
            expected: [
                "3:14: error: 'address' of listener 1: 'localhost:8080': 'localhost' is not an IP address "
                    + "(listeners bind to IPv4 a.b.c.d or [IPv6] literals, not host names)"
            ]),
        ConfigErrorCase(
            name: "upstream URL with a path",
            yaml: ConfigErrorCase.minimal(replacing: "http://127.0.0.1:9", with: "https://uploads.internal/api"),
            expected: [
                "6:10: error: 'url' of upstream 'up': 'https://uploads.internal/api': an upstream URL has no "
                    + "path, query or fragment (partgate forwards the request target unchanged)"
            ]),
        ConfigErrorCase(
            name: "duplicate key",
            yaml: ConfigErrorCase.minimal(
                replacing: "    upstream: up\n", with: "    upstream: up\n    upstream: up\n"),
            expected: ["10:5: error: duplicate key 'upstream' (first at 9:5)"]),
        // Failed before: `url :` was not found as a key, and the search went on into the next upstream's `url`.
        ConfigErrorCase(
            name: "duplicate key spelled with a blank before its colon",
            yaml: ConfigErrorCase.minimal(
                replacing: "    url: http://127.0.0.1:9\n",
                with: "    url: http://127.0.0.1:9\n    url : http://127.0.0.1:10\n  down:\n    url: http://127.0.0.1:11\n"),
            expected: ["7:5: error: duplicate key 'url' (first at 6:5)"]),
        ConfigErrorCase(
            name: "YAML syntax",
            yaml: ConfigErrorCase.minimal(replacing: "    upstream: up\n", with: "    upstream: [up\n"),
            expected: [
                "10:1: error: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence at 9:15)"
            ]),
        ConfigErrorCase(
            name: "tls on an http upstream",
            yaml: ConfigErrorCase.minimal(
                replacing: "    url: http://127.0.0.1:9\n",
                with: "    url: http://127.0.0.1:9\n    tls: { verify: false }\n"),
            expected: ["7:5: error: upstream 'up' has 'tls' settings but an http:// URL (use https:// or drop 'tls')"]),
        ConfigErrorCase(
            name: "client certificate without its key",
            yaml: ConfigErrorCase.minimal(
                replacing: "    url: http://127.0.0.1:9\n",
                with: "    url: https://127.0.0.1:9\n    tls: { client_certificate: tls/client.crt }\n"),
            expected: ["7:12: error: 'client_certificate' of upstream 'up' needs 'client_key' too"]),
        ConfigErrorCase(
            name: "route limits that cannot apply per route",
            yaml: ConfigErrorCase.minimal(route: "limits: { header_timeout: 5s, header_bytes: 32KiB }\n"),
            expected: [
                "10:15: error: 'header_timeout' cannot be set per route (the request head is read before a route is "
                    + "chosen); set it in the top-level 'limits'",
                "10:49: error: 'header_bytes' of route 'r' (32KiB) exceeds the top-level 16KiB: the head is read under "
                    + "the top-level limit, a route can only lower it",
            ]),
        ConfigErrorCase(
            name: "contradictory rule actions",
            yaml: ConfigErrorCase.minimal(
                route:
                    "rules:\n  - name: a\n    strip: true\n    rename: { field: x }\n  - name: b\n    on_exceed: truncate\n"
            ),
            expected: [
                "12:9: error: rule 'a': 'strip' ends the part's evaluation, so 'rename' would never apply (split them "
                    + "into separate rules)",
                "15:9: error: rule 'b' sets 'on_exceed' without 'max_bytes'",
            ]),
        ConfigErrorCase(
            name: "empty file",
            yaml: "",
            expected: ["1:1: error: empty configuration: expected a mapping that starts with 'version: 1'"]),
        ConfigErrorCase(
            name: "every problem is reported, in file order",
            yaml: ConfigErrorCase.minimal(replacing: "    upstream: up\n", with: "    upstream: uq\n")
                + "workers: lots\n",
            expected: [
                "9:15: error: route 'r' names undefined upstream 'uq' (did you mean 'up'?) (defined: 'up')",
                "10:10: error: 'workers' must be 'auto' or a number, found 'lots'",
            ]),
    ]

    @Test(arguments: cases)
    func reportsTheProblemAtItsPosition(_ testCase: ConfigErrorCase) throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let result = try workspace.check(testCase.yaml)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(CheckCommandTests.positioned(result, in: workspace) == testCase.expected)
    }
}
