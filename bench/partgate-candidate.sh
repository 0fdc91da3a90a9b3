#!/usr/bin/env bash
# Starts partgate as the benchmark harness's candidate: writes a configuration from the harness's
# environment (LISTEN_PORT, UPSTREAM_URL, UPSTREAM_HOST, UPSTREAM_CA) and execs `partgate serve`.
#   bench/partgate-candidate.sh [PARTGATE_BINARY]     (default: .build/release/partgate)
# One worker, multipart re-encoding on (the default route rewrites every multipart/form-data body). Like the
# baselines (nginx runs with `access_log off`, HAProxy without a log), it writes no access line per request:
# `--log-level warning` unless PARTGATE_ARGS is set (PARTGATE_ARGS= keeps the access log; the harness appends
# the candidate's output to a file on disk).
# scripts/order-file.sh profiles the same configuration with two optional additions: TLS_LISTEN_PORT adds a TLS
# listener (certificate and key from TLS_CERTIFICATE and TLS_KEY), and PARTGATE_WRAPPER is a command run in
# front of the binary (callgrind). PARTGATE_MULTIPART=passthrough relays multipart bodies unchanged instead of
# re-encoding them (the cost of the re-encoding alone: bench/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-$here/../.build/release/partgate}
: "${LISTEN_PORT:?}" "${UPSTREAM_URL:?}" "${UPSTREAM_HOST:?}" "${UPSTREAM_CA:?}"
# One file per listening port, rewritten at each start (exec leaves no shell behind to delete a temporary one).
config=${TMPDIR:-/tmp}/partgate-bench.$LISTEN_PORT.yaml
tls_listener=
multipart=
[ -n "${PARTGATE_MULTIPART:-}" ] && multipart="
    multipart: $PARTGATE_MULTIPART"
if [ -n "${TLS_LISTEN_PORT:-}" ]; then
    tls_listener="  - address: 127.0.0.1:$TLS_LISTEN_PORT
    tls: { certificate: ${TLS_CERTIFICATE:?}, key: ${TLS_KEY:?} }"
fi
cat > "$config" <<YAML
version: 1
workers: ${PARTGATE_WORKERS:-1}
listeners:
  - address: 127.0.0.1:$LISTEN_PORT
$tls_listener
upstreams:
  sink:
    url: $UPSTREAM_URL
    tls: { ca: $UPSTREAM_CA, server_name: $UPSTREAM_HOST }
    max_idle_connections: 256
limits:
  body_bytes: 8GiB
routes:
  - name: bench
    upstream: sink$multipart
YAML
exec ${PARTGATE_WRAPPER:-} "$binary" serve --config "$config" ${PARTGATE_ARGS---log-level warning}
