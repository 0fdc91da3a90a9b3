"""Every corpus request and every generated request, through partgate, to three real multipart parsers.

Each request goes to each of the three routes (Werkzeug, python-multipart, formidable), one at a time. For each
request partgate forwards, every backend must read the parts partgate's audit record says it forwarded (name,
filename after policy, content type, size, SHA-256), and so the three backends agree with each other. Requests
partgate refuses are counted by flag. Anything else is a differential: the test prints it and fails.
"""

import json
import os

from support.compare import Outcome, Tally
from support.generated import generated_requests
from support.inputs import corpus_requests
from support.partgate import BACKENDS
from support.sender import send


def _run(partgate, requests, name):
    tally = Tally(name)
    for number, request in enumerate(requests):
        outcomes = []
        for backend in BACKENDS:
            response = send(partgate.port, "/%s/upload" % backend, request.headers, request.body,
                            chunked=request.chunked, seed=number)
            end_line, audits = partgate.records_for_last_request()
            outcomes.append(Outcome(backend, response, end_line, audits))
        tally.judge(request, outcomes)
    print("\n" + tally.report())
    out = os.environ.get("PROOF_OUT")
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "summary-%s.json" % name), "w") as handle:
            json.dump(tally.summary(), handle, indent=2)
    return tally


def _check_corpus(server, corpus, name):
    requests = corpus_requests(corpus)
    assert len(requests) >= 100, "the corpora hold 103 usable requests; found %d" % len(requests)
    tally = _run(server, requests, name)
    assert tally.differentials == [], tally.report()
    assert tally.forwarded > 0 and sum(tally.refused.values()) > 0, tally.report()


def _check_generated(server, name):
    seed = int(os.environ.get("PROOF_SEED", "1"))
    requests = generated_requests(seed, large_mib=int(os.environ.get("PROOF_LARGE_MIB", "20")))
    tally = _run(server, requests, "%s-seed-%d" % (name, seed))
    assert tally.differentials == [], tally.report()
    assert tally.forwarded >= len(requests) // 3, tally.report()


def test_corpus_requests_read_alike_by_every_backend(partgate, corpus):
    _check_corpus(partgate, corpus, "corpus")


def test_generated_requests_read_alike_by_every_backend(partgate):
    _check_generated(partgate, "generated")


def test_corpus_requests_read_alike_in_spool_mode(partgate_spool, corpus):
    """Spool mode sends the re-encoded body with a Content-Length once it is whole; the backends must read it
    exactly as in stream mode."""
    _check_corpus(partgate_spool, corpus, "corpus-spool")


def test_generated_requests_read_alike_in_spool_mode(partgate_spool):
    _check_generated(partgate_spool, "generated-spool")
