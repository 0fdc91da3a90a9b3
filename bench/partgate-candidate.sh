#!/usr/bin/env bash
# Starts partgate as the benchmark harness's candidate: writes a configuration from the harness's
# environment (LISTEN_PORT, UPSTREAM_URL, UPSTREAM_HOST, UPSTREAM_CA) and execs `partgate serve`.
#   bench/partgate-candidate.sh [PARTGATE_BINARY]     (default: .build/release/partgate)
# One worker, multipart re-encoding on (the default route rewrites every multipart/form-data body).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../.build/release/partgate}
: "${LISTEN_PORT:?}" "${UPSTREAM_URL:?}" "${UPSTREAM_HOST:?}" "${UPSTREAM_CA:?}"
config=$(mktemp --tmpdir partgate-bench.XXXXXX.yaml)
cat > "$config" <<YAML
version: 1
workers: ${PARTGATE_WORKERS:-1}
listeners:
  - address: 127.0.0.1:$LISTEN_PORT
upstreams:
  sink:
    url: $UPSTREAM_URL
    tls: { ca: $UPSTREAM_CA, server_name: $UPSTREAM_HOST }
    max_idle_connections: 256
limits:
  body_bytes: 8GiB
routes:
  - name: bench
    upstream: sink
YAML
exec "$binary" serve --config "$config"
