#!/usr/bin/env bash
# Checks deploy/ (systemd unit, container image recipe, Kubernetes manifests) with real tools; `make test` runs
# it after the Swift test suites. Usage: scripts/check-deploy.sh [PARTGATE_BINARY] (default: the debug build).
# Installs nothing: `make deps` and .ci/run install systemd (systemd-analyze), openssl and, with pip,
# dockerfile-parse and kubernetes-validate.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-$(swift build --show-bin-path)/partgate}"
missing=()
command -v systemd-analyze >/dev/null || missing+=("systemd-analyze (apt: systemd)")
command -v openssl >/dev/null || missing+=("openssl (apt: openssl)")
python3 -c 'import dockerfile_parse' 2>/dev/null || missing+=("python3 module dockerfile_parse (pip: dockerfile-parse)")
python3 -c 'import kubernetes_validate' 2>/dev/null || missing+=("python3 module kubernetes_validate (pip: kubernetes-validate)")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'check-deploy: missing %s; run `make deps`\n' "${missing[@]}" >&2
    exit 1
fi
[ -x "$binary" ] || { echo "check-deploy: no partgate binary at $binary; build first" >&2; exit 1; }
exec python3 scripts/check_deploy.py "$binary"
