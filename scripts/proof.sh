#!/usr/bin/env bash
# The real-world proof suite (docs/proof.md): every corpus request and a seeded generated set through
# `partgate serve` to three real multipart parsers behind TLS (Werkzeug, python-multipart under Starlette and
# uvicorn, formidable under node), plus curl, Python requests and headless Chromium as clients.
#
# Needs the apt packages of `make proof-deps` (nodejs node-formidable chromium chromium-driver python3-venv
# curl). Python packages go into .build-proof/venv (proof/requirements.txt). Extra arguments go to pytest,
# e.g. scripts/proof.sh -k corpus. Environment: PROOF_SEED (default 1), PROOF_LARGE_MIB (default 20),
# PARTGATE_BIN (default: the debug binary, built here if needed).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in node curl chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed (run make proof-deps)" >&2; exit 1; }
done
[ -d /usr/share/nodejs/formidable ] || { echo "error: node-formidable is not installed (run make proof-deps)" >&2; exit 1; }

VENV=.build-proof/venv
if [ ! -x "$VENV/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check -r proof/requirements.txt

if [ -z "${PARTGATE_BIN:-}" ]; then
    swift build --product partgate
    PARTGATE_BIN="$(swift build --show-bin-path)/partgate"
fi
export PARTGATE_BIN
export SE_OFFLINE=true   # Selenium: use the given chromium and chromedriver, never look anything up
export PROOF_OUT="${PROOF_OUT:-$PWD/.build-proof/results}"
cd proof
exec "../$VENV/bin/python" -m pytest -p no:cacheprovider -q -rA "$@"
