#!/usr/bin/env bash
# Regenerates scripts/partgate.profdata, the execution profile the release build optimises with (LLVM's IR
# profile-guided optimisation, `-ir-profile-use` in scripts/release-build.sh).
#   scripts/pgo-profile.sh
# Builds an instrumented partgate (`-ir-profile-generate`) in its own scratch path, runs the benchmark's serving
# mix through it (small POSTs on plain and TLS listeners, 16 MiB uploads with Content-Length and chunked, plain
# and TLS) against the benchmark's TLS sink, stops it with SIGTERM (the counts are written at exit), and merges
# the counts with llvm-profdata (`--sparse`: functions that never ran are left out). Regenerate it, then
# scripts/order-file.sh, after large changes to the serving path; a function whose code changed since is compiled
# without its profile (the compiler notes the mismatch).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
for p in nginx-light wrk curl openssl; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
profdata_tool=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/llvm-profdata
[ -x "$profdata_tool" ] || profdata_tool=$(command -v llvm-profdata)
scratch=${PGO_SCRATCH:-.build-pgo}
work=$(mktemp -d --tmpdir partgate-pgo.XXXXXX)
# Instrumented without link-time optimisation; the LTO build reads the profile at the same early point of LLVM's
# pipeline where this one counts. Swift 6.3.1's driver drops `-ir-profile-generate` (and links no profile
# runtime): the option goes to the frontend and the runtime is named here.
runtime=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/../lib/clang
runtime=$(find "$runtime" -name 'libclang_rt.profile-x86_64.a' | head -1)
[ -f "$runtime" ] || { echo "pgo-profile: no libclang_rt.profile in the Swift toolchain" >&2; exit 1; }
rm -rf "$scratch"  # a clean build: the incremental driver missed a changed frontend option
LTO= PROFILE= ORDER_FILE= scripts/release-build.sh --scratch-path "$scratch" -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate \
    -Xlinker "$runtime" -Xlinker -u__llvm_profile_runtime
vp=
started_sink=0
cleanup() {
    [ -n "$vp" ] && kill "$vp" 2>/dev/null && wait "$vp" 2>/dev/null
    [ "$started_sink" = 1 ] && bench/harness/servers.sh stop sink >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
. bench/harness/env.sh
bench/harness/gen-certs.sh >/dev/null
bench/harness/gen-bodies.sh >/dev/null
if ! grep -q '^sink running' <<< "$(bench/harness/servers.sh status 2>/dev/null || true)"; then
    bench/harness/servers.sh start sink >/dev/null
    started_sink=1
fi
mkdir -p "$work/raw"
head -c 16M /dev/urandom > "$work/file.bin"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
tls_port=$(free_port)
# The benchmark's candidate configuration (no access log, as `make bench` runs it), plus a TLS listener.
LLVM_PROFILE_FILE="$work/raw/partgate-%p.profraw" \
    LISTEN_PORT=$port UPSTREAM_URL=$UPSTREAM_URL UPSTREAM_HOST=$UPSTREAM_HOST UPSTREAM_CA=$UPSTREAM_CA \
    TLS_LISTEN_PORT=$tls_port TLS_CERTIFICATE=$CERT_DIR/server-bundle.pem TLS_KEY=$CERT_DIR/server.key \
    bench/partgate-candidate.sh "$scratch/release/partgate" > "$work/partgate.log" 2>&1 &
vp=$!
wait_port "$port" 60
wait_port "$tls_port" 30
BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c64 -d5s --timeout 10s -s "$BENCH_DIR/wrk/multipart.lua" \
    "http://127.0.0.1:$port/" | grep '^WRK'
BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c8 -d2s --timeout 10s -s "$BENCH_DIR/wrk/multipart.lua" \
    "https://127.0.0.1:$tls_port/" | grep '^WRK'
for url in "http://127.0.0.1:$port/" "https://localhost:$tls_port/"; do
    for te in "" "Transfer-Encoding: chunked"; do
        for _ in 1 2; do
            code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$UPSTREAM_CA" --resolve "localhost:$tls_port:127.0.0.1" \
                ${te:+-H "$te"} -F a=1 -F "f=@$work/file.bin" "$url")
            [ "$code" = 200 ] || { echo "pgo-profile: upload to $url answered $code" >&2; exit 1; }
        done
    done
done
kill -TERM "$vp"
status=0
wait "$vp" || status=$?
vp=
[ "$status" = 0 ] || { echo "pgo-profile: partgate exited with $status" >&2; cat "$work/partgate.log" >&2; exit 1; }
"$profdata_tool" merge --sparse -o scripts/partgate.profdata "$work"/raw/*.profraw
echo "scripts/partgate.profdata: $(stat -c %s scripts/partgate.profdata) bytes"
