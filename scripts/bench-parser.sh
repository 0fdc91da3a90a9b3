#!/usr/bin/env bash
# Parser benchmark: partgate's Multipart parser against vapor/multipart-kit 4.7.1, in one run.
#   scripts/bench-parser.sh [REPS]
# 1. Wall clock, interleaved repetitions (bench/parser, release, cross-module optimisation for both):
#    one 256 MiB part, 10,000 parts of 100 bytes, 100 parts of 1 MiB -> GB/s, parts/s, speed ratio.
# 2. Instructions per small part with valgrind's callgrind (exact and repeatable on a noisy machine):
#    (instructions of 3 repetitions - instructions of 1) / 2 / 10,000, for each parser.
# Targets (issue 2): >= 5 GB/s on the large part; <= 1,500 instructions per small part.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
if ! command -v valgrind >/dev/null; then
    ${SUDO:-$([ "$(id -u)" = 0 ] || echo sudo)} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind
fi
cd bench/parser
# SwiftPM caches the file list of a path dependency; make it look again.
rm -f .build/release/description.json
swift build -c release -Xswiftc -cross-module-optimization 2>&1 | grep -E "error|warning: unre|Compiling parser|Build complete" || true
bin=.build/release/parser-bench
[ -x "$bin" ] || { echo "error: build failed" >&2; exit 1; }
"$bin" --reps "$reps"

stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$bin"   # valgrind 3.19 cannot read Swift's debug info
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" --only "$1" --body small --reps "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
for parser in partgate multipart-kit; do
    one=$(count "$parser" 1); three=$(count "$parser" 3)
    echo "INSTRUCTIONS parser=$parser body=small-10000x100B per_part=$(( (three - one) / 2 / 10000 ))"
done
