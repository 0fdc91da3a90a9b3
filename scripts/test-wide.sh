#!/usr/bin/env bash
# The test suite as a machine with many cores runs it (`make test-wide`, WIDE_CPUS=16 by default): a small
# preloaded library (scripts/wide/wide-cpus.c) makes the test process see that many processors, so the Swift
# runtime runs that many test functions at once on this machine's cores.
#
# A diagnostic, not a CI stage: it finds lifetime races between tests and the threads they leave behind (a
# handler thread that outlived its test crashed a CI run on a wider machine; two of two runs here reproduced it
# at 16 and 32). On two cores, 16 threads also stretch every timing: tests with a wall-clock bound (a reset noticed
# within 8 s) can miss it at 24 or more. Uses the debug build (`swift build --build-tests` first).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
CC=${CC:-clang}
library=$(mktemp -d)/wide-cpus.so
trap 'rm -rf "$(dirname "$library")"' EXIT
"$CC" -shared -fPIC -O2 -o "$library" scripts/wide/wide-cpus.c -ldl
export WIDE_CPUS=${WIDE_CPUS:-16}
echo "test-wide: the test process sees $WIDE_CPUS processors ($(nproc) here)"
LD_PRELOAD="$library" SWIFT="$SWIFT" scripts/swift-test.sh "$@"
