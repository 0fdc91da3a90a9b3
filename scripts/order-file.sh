#!/usr/bin/env bash
# Regenerates scripts/partgate.order, the link order of the functions serving runs (see docs/memory.md).
#   scripts/order-file.sh
# Builds partgate with one section per function (no ordering) in its own scratch path, runs it under
# callgrind with instrumentation switched on only after start-up, sends it small POSTs and 16 MiB uploads
# (Content-Length and chunked; plain and TLS listeners) through the benchmark's TLS sink, and writes every
# function of the binary that ran, hottest first. The release link (`make build`) puts them at the start of
# .text, so the code a serving worker touches lies in ~1.4 MB instead of being spread over 17 MB. A stale entry
# is ignored by the linker; regenerate after large changes to the serving path.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
for p in valgrind nginx-light wrk curl openssl; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
scratch=${ORDER_SCRATCH:-.build-order}
ORDER_FILE= scripts/release-build.sh --scratch-path "$scratch"  # the release build, without an order
work=$(mktemp -d --tmpdir partgate-order.XXXXXX)
vp=
started_sink=0
cleanup() {
    [ -n "$vp" ] && kill "$vp" 2>/dev/null && wait "$vp" 2>/dev/null
    [ "$started_sink" = 1 ] && bench/harness/servers.sh stop sink >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
objcopy --strip-debug "$scratch/release/partgate" "$work/partgate"  # valgrind cannot read lld's debug info
. bench/harness/env.sh
bench/harness/gen-certs.sh >/dev/null
bench/harness/gen-bodies.sh >/dev/null
started_sink=0
sinks=$(bench/harness/servers.sh status 2>/dev/null || true)
if ! grep -q '^sink running' <<< "$sinks"; then
    bench/harness/servers.sh start sink >/dev/null
    started_sink=1
fi
head -c 16M /dev/urandom > "$work/file.bin"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
tls_port=$(free_port)
# The benchmark's candidate configuration, plus a TLS listener, under callgrind.
LISTEN_PORT=$port UPSTREAM_URL=$UPSTREAM_URL UPSTREAM_HOST=$UPSTREAM_HOST UPSTREAM_CA=$UPSTREAM_CA \
    TLS_LISTEN_PORT=$tls_port TLS_CERTIFICATE=$CERT_DIR/server-bundle.pem TLS_KEY=$CERT_DIR/server.key \
    PARTGATE_ARGS= PARTGATE_WRAPPER="valgrind --tool=callgrind --instr-atstart=no --demangle=no --callgrind-out-file=$work/callgrind.out" \
    bench/partgate-candidate.sh "$work/partgate" > "$work/partgate.log" 2>&1 &
vp=$!
wait_port "$port" 120
wait_port "$tls_port" 30
sleep 1
callgrind_control -i on "$vp" >/dev/null
BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c8 -d4s --timeout 10s -s "$BENCH_DIR/wrk/multipart.lua" \
    "http://127.0.0.1:$port/" | grep '^WRK'
BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c4 -d2s --timeout 10s -s "$BENCH_DIR/wrk/multipart.lua" \
    "https://127.0.0.1:$tls_port/" | grep '^WRK'
for url in "http://127.0.0.1:$port/" "https://localhost:$tls_port/"; do
    for te in "" "Transfer-Encoding: chunked"; do
        code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$UPSTREAM_CA" --resolve "localhost:$tls_port:127.0.0.1" \
            ${te:+-H "$te"} -F a=1 -F "f=@$work/file.bin" "$url")
        [ "$code" = 200 ] || { echo "order-file: upload to $url answered $code" >&2; exit 1; }
    done
done
callgrind_control -d "$vp" >/dev/null
kill "$vp"; wait "$vp" 2>/dev/null || true; vp=
python3 scripts/callgrind_order.py "$work"/callgrind.out.* partgate > scripts/partgate.order
echo "scripts/partgate.order: $(wc -l < scripts/partgate.order) functions"
