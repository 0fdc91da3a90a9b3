#!/usr/bin/env bash
# The engine fault suites under AddressSanitizer + LeakSanitizer (`make test-asan`, run by CI).
#
# Builds every test target with -sanitize=address into its own scratch path (ASAN_SCRATCH, default
# .build-asan), then runs the suites named by ASAN_SUITES with the leak checker on. Suppressions
# (scripts/lsan.supp) list only allocations the test runtimes keep until exit, none of partgate's.
#
# Output streams as it comes. If the build fails, the free disk and memory are printed and the build runs
# once more: a build that a starved machine broke says so, and a second try costs only what is left to
# compile. The tests are never retried: a failing or leaking test fails this script.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH=${ASAN_SCRATCH:-.build-asan}
SUITES=${ASAN_SUITES:-ProxyUpstreamFault|ProxyClientFault|ProxySpoolCleanup|ProxyHalfClose|ProxySmallBody|TLSWriteBatch|DelimiterScan}

# gold warns once per exported local symbol of an ASan build; the lines say nothing about partgate.
quiet() { grep --line-buffered -av 'ld.gold: warning: Cannot export local symbol' || true; }
resources() {
    echo "test-asan: $(df -h --output=avail . | tail -1 | tr -d ' ') disk free," \
        "$(free -m | awk '/^Mem:/ {print $7}') MiB memory available"
}
build() { "$SWIFT" build --build-tests --sanitize=address --scratch-path "$SCRATCH" 2>&1 | quiet; }

status=0
build || status=$?
if [ "$status" -ne 0 ]; then
    echo "test-asan: the build exited with status $status"
    resources
    echo "test-asan: building once more"
    status=0
    build || status=$?
    [ "$status" -eq 0 ] || { echo "test-asan: the build failed again (status $status)"; resources; exit "$status"; }
fi

status=0
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp" SWIFT_BACKTRACE=enable=no \
    "$SWIFT" test --skip-build --quiet --sanitize=address --scratch-path "$SCRATCH" --filter "$SUITES" 2>&1 | quiet || status=$?
[ "$status" -eq 0 ] || { echo "test-asan: the tests failed (status $status)"; resources; }
exit "$status"
