#!/usr/bin/env bash
# The release build of partgate, the one definition `make build`, scripts/bench.sh, scripts/load.sh and
# scripts/order-file.sh share.
#   scripts/release-build.sh [swift build options]     e.g. --scratch-path DIR
# - cross-module optimisation, and full LLVM link-time optimisation of every Swift module (partgate's and its
#   packages'): 93.2 k instead of 98.5 k instructions per proxied small request (callgrind, bench/README.md);
# - the Swift runtime linked in statically (one binary to ship);
# - profile-guided optimisation with scripts/partgate.profdata (made by scripts/pgo-profile.sh; PROFILE= builds
#   without it, as that script does);
# - one section per function, linked by lld with the hot functions first (scripts/partgate.order, made by
#   scripts/order-file.sh; ORDER_FILE= builds without it, as that script does).
set -euo pipefail
cd "$(dirname "$0")/.."
order=${ORDER_FILE-scripts/partgate.order}
profile=${PROFILE-scripts/partgate.profdata}
lto=${LTO-full}
flags=(-c release -Xswiftc -cross-module-optimization --static-swift-stdlib
    -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld)
if [ -n "$lto" ]; then
    flags+=("--experimental-lto-mode=$lto")
fi
if [ -n "$order" ]; then
    flags+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
fi
if [ -n "$profile" ] && [ -f "$profile" ]; then
    flags+=(-Xswiftc -Xfrontend -Xswiftc "-ir-profile-use=$PWD/$profile")  # the driver drops the plain option
fi
# SwiftPM does not know that the link reads the order file, nor that the compiler reads the profile (its incremental
# driver does not even notice the option appear): relink when the order changed, rebuild the release products when
# the profile did.
scratch=.build
previous=
for argument in "$@"; do
    [ "$previous" = --scratch-path ] && scratch=$argument
    case $argument in --scratch-path=*) scratch=${argument#--scratch-path=};; esac
    previous=$argument
done
binary=$scratch/release/partgate
if [ -n "$profile" ] && [ -f "$profile" ] && [ "$profile" -nt "$binary" ] && [ -e "$scratch/release" ]; then
    rm -rf "$(readlink -f "$scratch/release")"
fi
if [ -n "$order" ] && [ "$order" -nt "$binary" ]; then rm -f "$binary"; fi
exec "${SWIFT:-swift}" build "${flags[@]}" --product partgate "$@"
