#!/usr/bin/env bash
# `swift test --skip-build` for `make test`, with its output as it comes, and on a failure the lines that say why
# printed again at the end: a CI log is often read from its tail, and a crash's reason (the runtime's message, the
# crashed thread) would otherwise sit above a page of other threads' frames, registers and images.
#
# The Swift backtracer prints the crashed thread only (SWIFT_BACKTRACE, unless set): which test or worker crashed
# and where is then a few dozen lines.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-threads=crashed,registers=none,images=none}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$SWIFT" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "swift-test: swift test exited with status $status; the lines that say why:"
    grep -a -n -E 'Fatal error|fatal error|Fatal access|Simultaneous accesses|\[err\]|double free|corrupted|free\(\): |malloc\(\)|AddressSanitizer|recorded an issue|failed after|Signal [0-9]+|crashed' "$log" |
        grep -a -v -E '^[0-9]+:\s*$' | head -60
    # The crashed thread's frames: from its heading to the first empty line after a frame.
    awk '/ crashed:$/ { on = 1 } on { print; if (++n > 70 || (framed && $0 == "")) exit; if (n > 1 && $0 != "") framed = 1 }' "$log"
fi
exit "$status"
