#!/usr/bin/env bash
# Instructions (and, with CACHE=1, simulated cache misses) per small proxied request, counted by valgrind's
# callgrind in partgate's process: the figure bench/README.md tracks from build to build.
#   scripts/callgrind-request.sh [BINARY] [OUTDIR]      default: .build/release/partgate, /tmp/partgate-callgrind
#   TARGET=nginx scripts/callgrind-request.sh           the same count for the harness's nginx baseline proxy (its
#                                                       configuration, one process, no master), for comparison
# Environment: CONNS (wrk connections, default 4), CACHE=1 (callgrind's cache model: 32 KiB L1 data, 1 MiB last
# level, the VM's per-core L2, and a 32 KiB L1 instruction cache; this VM exposes no hardware counters to perf).
# Runs the benchmark's candidate configuration (bench/partgate-candidate.sh) against the harness's TLS sink: 2 s of
# wrk small POSTs to warm up uninstrumented, then 5 s counted. Prints the totals per request and the split by shared
# object; the full profile is OUTDIR/callgrind.out.1 (callgrind_annotate). Compare two builds only when each was
# made with a profile and link order generated for it (bench/README.md, stop 23).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(readlink -f "${1:-.build/release/partgate}")
out=${2:-/tmp/partgate-callgrind}
conns=${CONNS:-4}
scripts/bench-deps.sh
if ! command -v valgrind >/dev/null; then
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind
fi
target=${TARGET:-partgate}
case $target in partgate|nginx) ;; *) echo "callgrind-request: TARGET must be partgate or nginx" >&2; exit 2;; esac
if [ "$target" = partgate ]; then
    [ -x "$binary" ] || { echo "callgrind-request: no binary at $binary (make build)" >&2; exit 1; }
fi
mkdir -p "$out"
rm -f "$out"/callgrind.out*
# valgrind gives up on the release binary's DWARF (LTO): it runs a copy without it (symbols stay).
[ "$target" = partgate ] && objcopy --strip-debug "$binary" "$out/partgate"
# shellcheck source=/dev/null
. bench/harness/env.sh
bench/harness/gen-certs.sh >/dev/null 2>&1
bench/harness/gen-bodies.sh >/dev/null 2>&1
started_sink=
if ! bench/harness/servers.sh status 2>/dev/null | grep -q '^sink running'; then
    bench/harness/servers.sh start sink >/dev/null
    started_sink=1
fi
cache=()
[ "${CACHE:-}" = 1 ] && cache=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
wrapper=(valgrind --tool=callgrind "${cache[@]}" --instr-atstart=no --callgrind-out-file="$out/callgrind.out")
if [ "$target" = nginx ]; then
    # The baseline's configuration as servers.sh writes it, on this port and with its own PID file.
    if ! bench/harness/servers.sh status 2>/dev/null | grep -q '^nginx running'; then
        bench/harness/servers.sh start nginx >/dev/null
        bench/harness/servers.sh stop nginx >/dev/null
    fi
    sed -e "s/listen 127.0.0.1:$NGINX_PORT;/listen 127.0.0.1:$port;/" -e "s#^pid .*#pid $out/nginx.pid;#" \
        "$RUN_DIR/nginx/nginx.conf" > "$out/nginx.conf"
    "${wrapper[@]}" nginx -c "$out/nginx.conf" -g 'daemon off; master_process off;' > "$out/log" 2>&1 &
else
    LISTEN_PORT=$port UPSTREAM_URL=$UPSTREAM_URL UPSTREAM_HOST=$UPSTREAM_HOST UPSTREAM_CA=$UPSTREAM_CA \
        PARTGATE_WRAPPER="${wrapper[*]}" bench/partgate-candidate.sh "$out/partgate" > "$out/log" 2>&1 &
fi
proxy=$!
cleanup() {
    kill "$proxy" 2>/dev/null || true
    wait "$proxy" 2>/dev/null || true
    if [ -n "$started_sink" ]; then bench/harness/servers.sh stop sink >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
wait_port "$port" 120 2>/dev/null || { echo "callgrind-request: $target did not start under valgrind; see $out/log" >&2; exit 1; }
load() {
    BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE \
        wrk -t1 -c"$conns" -d"$1" -s "$BENCH_DIR/wrk/multipart.lua" "http://127.0.0.1:$port/"
}
load 2s > /dev/null
callgrind_control -i on "$proxy" > /dev/null
load 5s > "$out/wrk.txt"
callgrind_control -d "$proxy" > /dev/null
requests=$(grep -o '[0-9]* requests in' "$out/wrk.txt" | awk '{print $1}')
[ -n "$requests" ] && [ "$requests" -gt 0 ] || { echo "callgrind-request: wrk completed no request" >&2; exit 1; }
profile=$out/callgrind.out.1
echo "requests counted: $requests ($conns connections)"
callgrind_annotate "$profile" 2>/dev/null | awk -v n="$requests" '
    /^Ir/ && !events { events = $0 }
    /PROGRAM TOTALS/ {
        split(events, name, /  +/); column = 1
        for (i = 1; i <= NF; i++) if ($i ~ /^[0-9,]+$/) {
            value = $i; gsub(",", "", value)
            printf "per request: %-5s %9.0f\n", name[column], value / n; column++
        }
    }'
echo "instructions per request by object:"
callgrind_annotate --threshold=100 "$profile" 2>/dev/null | awk -v n="$requests" '
    /^ *[0-9,]+ .*\[[^]]*\]$/ {
        value = $1; gsub(",", "", value)
        match($0, /\[[^]]*\]$/); object = substr($0, RSTART + 1, RLENGTH - 2)
        sum[object] += value
    }
    END { for (object in sum) if (sum[object] / n >= 10) printf "  %9.0f  %s\n", sum[object] / n, object }' |
    sort -rn
