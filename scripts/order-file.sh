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
. scripts/serving-mix.sh
trap mix_cleanup EXIT
mix_setup order
objcopy --strip-debug "$scratch/release/partgate" "$work/partgate"  # valgrind cannot read lld's debug info
# The benchmark's candidate configuration with its access log, plus a TLS listener, under callgrind.
mix_start "$work/partgate" PARTGATE_ARGS= \
    PARTGATE_WRAPPER="valgrind --tool=callgrind --instr-atstart=no --demangle=no --callgrind-out-file=$work/callgrind.out"
sleep 1
callgrind_control -i on "$vp" >/dev/null
mix_run 8 4 4 2 1
callgrind_control -d "$vp" >/dev/null
kill "$vp"; wait "$vp" 2>/dev/null || true; vp=
python3 scripts/callgrind_order.py "$work"/callgrind.out.* partgate > scripts/partgate.order
echo "scripts/partgate.order: $(wc -l < scripts/partgate.order) functions"
