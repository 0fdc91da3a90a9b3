"""Session fixtures: the run's certificates, the three TLS backends, and `partgate serve` in front of them.

Everything binds 127.0.0.1 port 0 and reports the port it got; everything is stopped by PID at the end.
Environment: PARTGATE_BIN (default .build/debug/partgate), PROOF_CORPUS (default ../shared/corpus from the
repository root), PROOF_SEED (default 1), PROOF_LARGE_MIB (default 20), PROOF_OUT (summary JSON folder).
"""

import itertools
import os
import subprocess
import sys

import pytest

from support.partgate import BACKENDS, PartgateServer, configuration
from support.processes import ManagedProcess
from support.tls import CertificateAuthority

_instances = itertools.count(1)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives headless Chromium")


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory):
    return str(tmp_path_factory.mktemp("proof"))


@pytest.fixture(scope="session")
def corpus():
    path = os.environ.get("PROOF_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
    if not os.path.isdir(path):
        pytest.fail("corpus folder %s is missing (shared/corpus beside the repository)" % path)
    return path


@pytest.fixture(scope="session")
def authority(run_folder):
    return CertificateAuthority(os.path.join(run_folder, "tls"))


def _backend_argv(name, certificate, key):
    backends = os.path.join(HERE, "backends")
    if name == "formidable":
        return ["node", os.path.join(backends, "formidable_backend.mjs"), certificate, key]
    script = {"werkzeug": "werkzeug_backend.py", "python-multipart": "starlette_backend.py"}[name]
    return [sys.executable, os.path.join(backends, script), certificate, key]


@pytest.fixture(scope="session")
def backends(authority, run_folder):
    """The three backends, each behind its own certificate: {name: port}."""
    env = dict(os.environ)
    env["NODE_PATH"] = "/usr/share/nodejs" + (":" + env["NODE_PATH"] if env.get("NODE_PATH") else "")
    env["PYTHONPATH"] = os.path.join(HERE, "backends")
    started = {}
    try:
        for name in BACKENDS:
            certificate, key = authority.issue(name)
            started[name] = ManagedProcess(name, _backend_argv(name, certificate, key), run_folder, env=env)
        ports = {name: process.port() for name, process in started.items()}
        yield ports
    finally:
        for process in started.values():
            process.stop()


@pytest.fixture(scope="session")
def partgate_binary():
    binary = os.environ.get("PARTGATE_BIN", os.path.join(ROOT, ".build", "debug", "partgate"))
    if not os.access(binary, os.X_OK):
        pytest.fail("no partgate binary at %s (build it, or set PARTGATE_BIN)" % binary)
    return binary


def _serve(partgate_binary, backends, authority, run_folder, forward):
    number = next(_instances)
    config_path = os.path.join(run_folder, "partgate-%d.yaml" % number)
    with open(config_path, "w") as handle:
        handle.write(configuration(backends, authority.ca_path, forward=forward))
    check = subprocess.run([partgate_binary, "check", "--config", config_path], capture_output=True, text=True,
                           timeout=60)
    assert check.returncode == 0, "partgate check refused the configuration:\n%s" % check.stderr
    server = PartgateServer(partgate_binary, config_path, run_folder, label="partgate-%d" % number)
    try:
        yield server
    finally:
        status = server.stop()
        assert status == 0, "partgate exited %s after SIGTERM: %s" % (status, server.process.stderr())


@pytest.fixture(scope="module")
def partgate(partgate_binary, backends, authority, run_folder):
    """`partgate serve` with the three routes in stream mode (one instance per test module, so one module's
    stray requests never reach another's log); `partgate check` must accept the configuration first."""
    yield from _serve(partgate_binary, backends, authority, run_folder, "stream")


@pytest.fixture(scope="module")
def partgate_spool(partgate_binary, backends, authority, run_folder):
    """The same three routes with `forward: spool`: each body is re-encoded into a spool, checked whole, then
    sent with a Content-Length instead of chunked."""
    yield from _serve(partgate_binary, backends, authority, run_folder, "spool")
