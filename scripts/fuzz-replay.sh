#!/usr/bin/env bash
# Replays the committed fuzz corpora (Fuzz/corpus/<TARGET>) through each fuzz target, built plainly
# (build C: no sanitizer, no libFuzzer; the targets' @main replays the files given). Fast; for CI.
#
#   scripts/fuzz-replay.sh [TARGET...]
#
# Exits non-zero if a target fails to build or an input violates an invariant (the failing input is
# named on stderr).
set -uo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(FuzzContentType FuzzContentDisposition FuzzMultipart FuzzRoundTrip FuzzRequestHead FuzzChunked FuzzResponseHead FuzzFileStructure FuzzPolicy)
bin_dir=.build/debug
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
status=0
for target in "${targets[@]}"; do
    if ! swift build --product "$target" >"$build_log" 2>&1; then
        cat "$build_log" >&2
        echo "fuzz-replay.sh: build of $target failed" >&2
        status=1
        continue
    fi
    "$bin_dir/$target" "Fuzz/corpus/$target" || { echo "fuzz-replay.sh: $target failed" >&2; status=1; }
done
exit $status
