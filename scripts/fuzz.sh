#!/usr/bin/env bash
# Builds the libFuzzer targets with coverage + AddressSanitizer (build A, Fuzz/README.md) and runs each
# for SECONDS (default 60), one after the other.
#
#   scripts/fuzz.sh [--merge] [--release] [SECONDS] [TARGET...]
#
#   --merge    afterwards, merge the inputs that add coverage back into the committed Fuzz/corpus/<TARGET>
#   --release  build with -c release (-O keeps every Swift safety check: bounds, overflow, precondition,
#              the harness invariants); about 4x the executions per second, less precise stack traces
#
# New inputs go to a scratch corpus, .build-fuzz/work/<TARGET>/corpus, which persists between runs; the
# committed Fuzz/corpus/<TARGET> is only read (libFuzzer writes to the first corpus directory only).
# Each run writes its log and any crash/timeout/oom reproducers to fuzz-artifacts/<TARGET>/<timestamp>/.
# FUZZ_SEED=N fixes libFuzzer's random seed and FUZZ_RUNS=N stops each target after N inputs (SECONDS then
# only caps the time): CI sets both, so its run is the same inputs on any machine and a finding there
# replays the same way here (from a fresh clone: the scratch corpus below starts empty). Unset, each run
# draws a fresh seed and runs for SECONDS.
# Prints one summary line per target; exits 1 if any target found a crash, a timeout or an out-of-memory
# input, 2 on usage or build errors.
set -uo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(FuzzContentType FuzzContentDisposition FuzzMultipart FuzzRoundTrip FuzzRequestHead FuzzChunked FuzzResponseHead FuzzFileStructure FuzzPolicy)
SCRATCH=.build-fuzz
merge=0
configuration=debug
seconds=60
targets=()
for arg in "$@"; do
    case "$arg" in
        --merge) merge=1 ;;
        --release) configuration=release ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]*|'')
            if [[ " ${ALL_TARGETS[*]} " == *" $arg "* ]]; then targets+=("$arg")
            else echo "fuzz.sh: unknown target or option '$arg' (targets: ${ALL_TARGETS[*]})" >&2; exit 2; fi ;;
        *) seconds=$arg ;;
    esac
done
[[ ${#targets[@]} -eq 0 ]] && targets=("${ALL_TARGETS[@]}")

max_len() {
    case "$1" in
        FuzzContentType|FuzzContentDisposition|FuzzRequestHead|FuzzResponseHead) echo 4096 ;;
        FuzzFileStructure) echo 8192 ;;
        FuzzPolicy) echo 16384 ;;
        *) echo 65536 ;;
    esac
}

# Build A. `--sanitize=fuzzer` alone links libFuzzer's main but (SwiftPM 6.3) does not pass the fuzzer
# sanitizer to the compiler, so nothing is coverage-instrumented and libFuzzer runs blind; the -Xswiftc
# flag instruments every module (and must repeat `address`, since it replaces SwiftPM's compile flag).
build() {
    local target=$1 log
    log=$(swift build -c "$configuration" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -DFUZZING --product "$target" --scratch-path "$SCRATCH" 2>&1)
    local status=$?
    # ld.gold warns about ~140 ASan symbols it cannot export: harmless noise.
    grep -v "Cannot export local symbol" <<<"$log" | grep -vE '^\[[0-9]+/[0-9]+\]|^Building for|^$' || true
    return $status
}

for target in "${targets[@]}"; do
    echo "== building $target ($configuration, sanitize=fuzzer,address)"
    build "$target" || { echo "fuzz.sh: build of $target failed" >&2; exit 2; }
done

bin_dir="$SCRATCH/$configuration"
failed=0
summaries=()
for target in "${targets[@]}"; do
    work="$SCRATCH/work/$target/corpus"
    run_dir="fuzz-artifacts/$target/$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$work" "$run_dir"
    echo "== fuzzing $target for ${seconds}s (log: $run_dir/fuzz.log)"
    SWIFT_BACKTRACE=enable=no "$bin_dir/$target" "$work" "Fuzz/corpus/$target" \
        -seed="${FUZZ_SEED:-0}" -runs="${FUZZ_RUNS:--1}" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$run_dir/" -print_final_stats=1 >"$run_dir/fuzz.log" 2>&1
    status=$?

    log="$run_dir/fuzz.log"
    execs=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" | tail -1)
    rate=$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" | tail -1)
    new=$(grep -oP 'stat::new_units_added:\s*\K[0-9]+' "$log" | tail -1)
    cov=$(grep -oP 'cov: \K[0-9]+' "$log" | tail -1)
    ft=$(grep -oP 'ft: \K[0-9]+' "$log" | tail -1)
    corpus=$(grep -oP 'corp: \K[0-9]+' "$log" | tail -1)
    artifacts=$(find "$run_dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
        -o -name 'leak-*' -o -name 'slow-unit-*' \) | sort)
    crashes=$(grep -c . <<<"$artifacts")
    if [[ $status -ne 0 || $crashes -ne 0 ]]; then
        failed=1
        grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)|deadly signal' "$log" | sed "s/^/   $target: /"
        for artifact in $artifacts; do echo "   reproducer: $artifact"; done
        [[ $crashes -eq 0 ]] && echo "   $target: libFuzzer exited $status without an artifact; see $log"
    fi
    summaries+=("$(printf '%-23s execs %-9s exec/s %-6s cov %-5s ft %-6s corpus %-5s new %-5s crashes %s' \
        "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "${new:-?}" "$crashes")")

    if [[ $merge -eq 1 && $status -eq 0 ]]; then
        echo "== merging new coverage into Fuzz/corpus/$target"
        SWIFT_BACKTRACE=enable=no "$bin_dir/$target" -merge=1 -max_len="$(max_len "$target")" -timeout=10 \
            "Fuzz/corpus/$target" "$work" >"$run_dir/merge.log" 2>&1 \
            || { echo "fuzz.sh: merge for $target failed; see $run_dir/merge.log" >&2; failed=1; }
        grep -E 'MERGE-OUTER: [0-9]+ new files' "$run_dir/merge.log" | sed "s/^/   /"
    fi
done

echo "== summary (${seconds}s per target, $configuration build)"
printf '%s\n' "${summaries[@]}"
exit $failed
