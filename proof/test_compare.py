"""The judging itself, without servers: a reading that differs from partgate's audit record, or from another
backend's, is a differential; routes that refuse with different flags are one too. (So the suite can fail.)"""

import json

from support.compare import Outcome, Tally, forwarded_parts
from support.inputs import ProofRequest
from support.sender import Response

AUDIT = [
    {"msg": "audit", "request": "r1", "index": 0, "name": "a", "forwarded_name": "a", "size": 1, "forwarded_size": 1,
     "sha256": "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb", "decision": "pass"},
    {"msg": "audit", "request": "r1", "index": 1, "name": "internal_x", "size": 3, "forwarded_size": 0,
     "decision": "strip"},
    {"msg": "audit", "request": "r1", "index": 2, "name": "f", "forwarded_name": "f", "filename": "../x.txt",
     "forwarded_filename": "x.txt", "forwarded_type": "text/plain", "size": 0, "forwarded_size": 0,
     "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "decision": "pass"},
]
ACCESS = {"msg": "access", "status": 200}


def reading(backend, filename="x.txt"):
    parts = forwarded_parts(AUDIT)
    parts[1] = dict(parts[1], filename=filename)
    body = '{"backend": "%s", "parts": %s}' % (backend, json.dumps(parts))
    return Outcome(backend, Response(200, "application/json", body.encode()), ACCESS, AUDIT)


def test_stripped_parts_are_not_expected_and_names_are_the_forwarded_ones():
    parts = forwarded_parts(AUDIT)
    assert [(p["name"], p["filename"], p["size"]) for p in parts] == [("a", None, 1), ("f", "x.txt", 0)]


def test_agreeing_backends_count_as_forwarded():
    tally = Tally("t")
    assert tally.judge(ProofRequest("ok", [], b""), [reading("w"), reading("p"), reading("f")]) == []
    assert tally.forwarded == 1 and tally.parts_compared == 6


def test_one_backend_reading_another_filename_is_a_differential():
    tally = Tally("t")
    found = tally.judge(ProofRequest("bad", [], b""), [reading("w"), reading("p"), reading("f", filename="☃.txt")])
    assert any("f vs partgate audit: part 1 filename" in line for line in found)
    assert any("w vs f: part 1 filename" in line for line in found)
    assert tally.forwarded == 0 and len(tally.differentials) == 1


def test_a_backend_refusing_a_forwarded_body_is_a_differential():
    refused = Outcome("f", Response(400, "application/json", b'{"backend": "f", "error": "bad"}'), ACCESS, AUDIT)
    tally = Tally("t")
    assert tally.judge(ProofRequest("bad", [], b""), [reading("w"), reading("p"), refused])
    assert len(tally.differentials) == 1


def test_routes_refusing_with_different_flags_are_a_differential():
    def refusal(flag):
        body = ('{"type":"about:blank","status":400,"flag":"%s"}' % flag).encode()
        return Outcome("x", Response(400, "application/problem+json", body), {"msg": "refused", "flag": flag}, [])
    tally = Tally("t")
    assert tally.judge(ProofRequest("same", [], b""), [refusal("lf_line")] * 3) == []
    assert tally.refused == {"lf_line": 1}
    assert tally.judge(ProofRequest("split", [], b""), [refusal("charset"), refusal("lf_line"), refusal("lf_line")])
