"""`partgate serve` as the suite runs it: the configuration it writes, the process, and its audit records.

The configuration has one upstream per backend (https, verified against the run's CA with `tls.ca`) and one
route per backend (`/werkzeug`, `/python-multipart`, `/formidable`) with the same policy and `audit: true`.
One worker keeps the JSON log in request order: the suite sends one request at a time, and after each
response reads the log up to that request's `access` or `refused` line; the `audit` lines before it are
partgate's own record of what it forwarded for that request.
"""

import json
import os

from .processes import ManagedProcess

BACKENDS = ("werkzeug", "python-multipart", "formidable")

POLICY = """\
    audit: true
    forward: {forward}
    unsafe_filenames: sanitize
    strict: {{ unsafe_filename: normalize }}
    rules:
      - name: drop-internal
        match: {{ field: "internal_*" }}
        strip: true
      - name: rename-legacy
        match: {{ field: "legacy_*" }}
        rename: {{ field: "renamed_{{index}}" }}
      - name: no-executables
        match: {{ sniffed_type: [application/x-msdownload, application/x-executable, application/x-elf] }}
        reject: {{ status: 415 }}
"""


def configuration(ports, ca_path, forward="stream"):
    """The YAML text: a loopback listener on port 0, the three TLS upstreams, three routes with one policy."""
    lines = [
        "version: 1",
        "workers: 1",
        "listeners:",
        "  - address: 127.0.0.1:0",
        "upstreams:",
    ]
    for name in BACKENDS:
        lines += [
            "  %s:" % name,
            "    url: https://127.0.0.1:%d" % ports[name],
            "    tls: { ca: %s, server_name: localhost }" % ca_path,
            "    response_timeout: 120s",
        ]
    lines += [
        "limits:",
        "  body_bytes: 64MiB",
        "  parts: 1000",
        "  field_bytes: 1MiB",
        "  idle_timeout: 120s",
        "  drain_timeout: 5s",
        "routes:",
    ]
    text = "\n".join(lines) + "\n"
    for name in BACKENDS:
        text += "  - name: %s\n    match: { path_prefix: /%s }\n    upstream: %s\n" % (name, name, name)
        text += POLICY.format(forward=forward)
    return text


class PartgateServer:
    """A running `partgate serve`, its listener port, and a cursor over its JSON log."""

    def __init__(self, binary, config_path, log_folder, label="partgate"):
        self.process = ManagedProcess(label, [binary, "serve", "--config", config_path, "--log-format", "json"],
                                      log_folder)
        index = self.process.wait_for(lambda line: '"msg":"listening"' in line, timeout=60)
        if index is None:
            self.process.stop()
            raise RuntimeError("partgate did not log `listening`: %s\n%s" % (self.process.lines, self.process.stderr()))
        self.port = int(json.loads(self.process.lines[index])["address"].rsplit(":", 1)[1])
        self._cursor = index + 1
        self._seen_requests = set()

    def records_for_last_request(self, timeout=30.0):
        """(end line, audit records) of the request answered last: the log up to its `access` line. Every answer
        has one; an answer partgate made itself has a `refused` line before it, which is the end line then."""
        def is_end(line):
            return '"msg":"access"' in line
        index = self.process.wait_for(is_end, start=self._cursor, timeout=timeout)
        if index is None:
            raise RuntimeError("partgate logged no access line within %ss" % timeout)
        audits = []
        end = json.loads(self.process.lines[index])
        for line in self.process.lines[self._cursor:index]:
            if '"msg":"audit"' in line:
                record = json.loads(line)
                if record["request"] not in self._seen_requests:
                    audits.append(record)
            elif '"msg":"refused"' in line:
                end = json.loads(line)
        self._cursor = index + 1
        requests = {record["request"] for record in audits}
        if len(requests) > 1:
            raise RuntimeError("audit lines of several requests between two answers: %s" % sorted(requests))
        self._seen_requests |= requests
        return end, audits

    def records_for(self, target, timeout=30.0):
        """(access line, audit records) of the request for `target`: the log up to its `access` line.

        Lines of other requests before it (a browser's favicon fetch, refused with `no_route`) carry no audit
        records and are passed over.
        """
        def is_access(line):
            return '"msg":"access"' in line and json.loads(line).get("target") == target
        index = self.process.wait_for(is_access, start=self._cursor, timeout=timeout)
        if index is None:
            raise RuntimeError("partgate logged no access line for %s within %ss: %s"
                               % (target, timeout, self.process.lines[self._cursor:]))
        audits = [json.loads(line) for line in self.process.lines[self._cursor:index] if '"msg":"audit"' in line]
        self._cursor = index + 1
        return json.loads(self.process.lines[index]), audits

    def stop(self):
        return self.process.stop()
