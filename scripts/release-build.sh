#!/usr/bin/env bash
# The release build of partgate, the one definition `make build`, scripts/bench.sh, scripts/load.sh and
# scripts/order-file.sh share.
#   scripts/release-build.sh [swift build options]     e.g. --scratch-path DIR
# - cross-module optimisation, and full LLVM link-time optimisation of every Swift module (partgate's and its
#   packages'): 93.2 k instead of 98.5 k instructions per proxied small request (callgrind, bench/README.md);
# - the Swift runtime linked in statically (one binary to ship);
# - one section per function, linked by lld with the hot functions first (scripts/partgate.order, made by
#   scripts/order-file.sh; ORDER_FILE= builds without it, as that script does).
set -euo pipefail
cd "$(dirname "$0")/.."
order=${ORDER_FILE-scripts/partgate.order}
flags=(-c release -Xswiftc -cross-module-optimization --experimental-lto-mode=full --static-swift-stdlib
    -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld)
if [ -n "$order" ]; then
    flags+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
fi
exec "${SWIFT:-swift}" build "${flags[@]}" --product partgate "$@"
