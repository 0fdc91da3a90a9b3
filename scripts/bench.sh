#!/usr/bin/env bash
# The proxy benchmark: partgate against nginx and HAProxy through bench/harness (see bench/README.md).
#   scripts/bench.sh [compare.sh options]      default: -n 5 -s 3 -d 10 -q 60
# Installs the baselines and load tools with apt when missing, builds partgate release, then runs
# compare.sh with partgate as the candidate. Results: $BENCH_WORK/results/<time>/ (default /tmp/mpbench).
# BENCH_HOLD_PAGE_REPORTING=1 (root): no free page reporting during the run (see below and bench/README.md, stop 31).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bench-deps.sh
scripts/release-build.sh  # as make build
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-n 5 -s 3 -d 10 -q 60)

# A VM whose balloon reports free pages to its host (virtio free page reporting) gets those pages back unbacked: the
# first touch of each costs the host a fault. The sink writes every upload body to tmpfs, into freshly allocated
# pages, so a round that draws reported pages spends 2-3 times the sink's usual system time, whichever proxy is in
# front. Holding reporting off for the run (order 11: no free block is that large) leaves the pages backed once used.
reporting=/sys/module/page_reporting/parameters/page_reporting_order
if [ -e "$reporting" ]; then
    if [ "${BENCH_HOLD_PAGE_REPORTING:-0}" = 1 ] && [ -w "$reporting" ]; then
        saved=$(cat "$reporting")
        trap 'echo "$saved" > "$reporting"' EXIT
        if echo 11 > "$reporting" 2>/dev/null && [ "$(cat "$reporting")" = 11 ]; then
            echo "# free page reporting held off for this run (order $saved restored at exit)" >&2
        else
            echo "# could not hold free page reporting off: upload rounds may swing with the host" >&2
        fi
    else
        echo "# this VM reports free pages to its host (order $(cat "$reporting")): upload rounds may swing;" \
            "BENCH_HOLD_PAGE_REPORTING=1 holds it off for the run" >&2
    fi
fi
bench/harness/compare.sh "${args[@]}" -x "$PWD/bench/partgate-candidate.sh $PWD/.build/release/partgate"
