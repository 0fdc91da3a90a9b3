"""The corpus requests: every whole request or multipart body of the public corpora in shared/corpus.

A request is a `ProofRequest`: a label, the header lines to send (the sender adds Host, Content-Length and
Connection), and the body. Bodies that come without a request get `Content-Type: multipart/form-data;
boundary=<b>` (the boundary quoted when it holds characters a token cannot). Captured requests keep their own
header lines, bytes as captured (WAFFLED's corrupted `Content-Type` names and RFC 2231 continuations
included); only their declared `Content-Length` is replaced by the body's real length, since several formidable
captures declare a wrong one (corpus README, "Read before replaying").
"""

import dataclasses
import json
import os
import re

TOKEN = re.compile(rb"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


@dataclasses.dataclass
class ProofRequest:
    """One request to send through partgate: `headers` is a list of (name, value) byte pairs."""

    label: str
    headers: list
    body: bytes
    chunked: bool = False


def multipart_headers(boundary):
    """The Content-Type header for a body with this boundary (bytes), quoted if it is not a token."""
    value = boundary if TOKEN.match(boundary) else b'"' + boundary + b'"'
    return [(b"Content-Type", b"multipart/form-data; boundary=" + value)]


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def split_request(raw):
    """Header lines and body of a captured request (CRLF or LF-only); drops Host, Content-Length, Connection."""
    for separator in (b"\r\n\r\n", b"\n\n"):
        end = raw.find(separator)
        if end >= 0:
            head, body = raw[:end], raw[end + len(separator):]
            break
    else:
        head, body = raw, b""
    lines = re.split(rb"\r?\n", head)[1:]
    headers = []
    for line in lines:
        name, _, value = line.partition(b":")
        if name.strip().lower() in (b"host", b"content-length", b"connection", b"transfer-encoding", b"expect"):
            continue
        headers.append((name, value.lstrip(b" \t")))
    return headers, body


def corpus_requests(corpus):
    """Every usable request of the five multipart corpora, in a stable order."""
    requests = []

    folder = os.path.join(corpus, "python-multipart", "http")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".http"):
            continue
        stem = name[: -len(".http")]
        description = _read(os.path.join(folder, stem + ".yaml")).decode("utf-8")
        boundary = re.search(r"^boundary: (.*)$", description, re.M).group(1).strip().encode("latin-1")
        requests.append(ProofRequest("python-multipart/" + stem, multipart_headers(boundary),
                                     _read(os.path.join(folder, name))))

    folder = os.path.join(corpus, "werkzeug")
    for case in json.loads(_read(os.path.join(folder, "expectations.json")))["cases"]:
        content_type = case["content_type_sent_by_test"].encode("latin-1")
        requests.append(ProofRequest("werkzeug/" + case["body_file"], [(b"Content-Type", content_type)],
                                     _read(os.path.join(folder, case["body_file"]))))

    folder = os.path.join(corpus, "busboy", "cases")
    for case in json.loads(_read(os.path.join(folder, "cases.json"))):
        boundary = case["boundary"].encode("utf-8")
        requests.append(ProofRequest("busboy/" + case["body_file"], multipart_headers(boundary),
                                     _read(os.path.join(folder, case["body_file"]))))

    folder = os.path.join(corpus, "formidable")
    for root, _, files in sorted(os.walk(os.path.join(folder, "http"))):
        for name in sorted(files):
            if name.endswith(".http"):
                headers, body = split_request(_read(os.path.join(root, name)))
                label = "formidable/" + os.path.relpath(os.path.join(root, name), folder)
                requests.append(ProofRequest(label, headers, body))
    for case in json.loads(_read(os.path.join(folder, "parser-vectors", "cases.json"))):
        requests.append(ProofRequest("formidable/parser-vectors/" + case["body_file"],
                                     multipart_headers(case["boundary"].encode("utf-8")),
                                     _read(os.path.join(folder, "parser-vectors", case["body_file"]))))

    folder = os.path.join(corpus, "waffled")
    for case in json.loads(_read(os.path.join(folder, "index.json")))["cases"]:
        headers, body = split_request(_read(os.path.join(folder, case["file"])))
        requests.append(ProofRequest("waffled/" + os.path.basename(case["file"]), headers, body))
    return requests
