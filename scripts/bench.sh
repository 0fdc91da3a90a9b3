#!/usr/bin/env bash
# The proxy benchmark: partgate against nginx and HAProxy through bench/harness (see bench/README.md).
#   scripts/bench.sh [compare.sh options]      default: -n 5 -s 3 -d 10 -q 60
# Installs the baselines and load tools with apt when missing, builds partgate release, then runs
# compare.sh with partgate as the candidate. Results: $BENCH_WORK/results/<time>/ (default /tmp/mpbench).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bench-deps.sh
scripts/release-build.sh  # as make build
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-n 5 -s 3 -d 10 -q 60)
exec bench/harness/compare.sh "${args[@]}" -x "$PWD/bench/partgate-candidate.sh $PWD/.build/release/partgate"
