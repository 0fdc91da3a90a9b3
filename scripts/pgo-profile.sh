#!/usr/bin/env bash
# Regenerates scripts/partgate.profdata, the execution profile the release build optimises with (LLVM's IR
# profile-guided optimisation, `-ir-profile-use` in scripts/release-build.sh).
#   scripts/pgo-profile.sh
# Builds an instrumented partgate (`-ir-profile-generate`) in its own scratch path, runs the benchmark's serving
# mix through it (small POSTs on plain and TLS listeners, 16 MiB uploads with Content-Length and chunked, plain
# and TLS) against the benchmark's TLS sink, stops it with SIGTERM (the counts are written at exit), and merges
# the counts with llvm-profdata (`--sparse`: functions that never ran are left out). Regenerate it, then
# scripts/order-file.sh, after large changes to the serving path; a function whose code changed since is compiled
# without its profile (the compiler notes the mismatch).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
for p in nginx-light wrk curl openssl; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
profdata_tool=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/llvm-profdata
[ -x "$profdata_tool" ] || profdata_tool=$(command -v llvm-profdata)
scratch=${PGO_SCRATCH:-.build-pgo}
# Instrumented without link-time optimisation; the LTO build reads the profile at the same early point of LLVM's
# pipeline where this one counts. Swift 6.3.1's driver drops `-ir-profile-generate` (and links no profile
# runtime): the option goes to the frontend and the runtime is named here.
runtime=$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/../lib/clang
runtime=$(find "$runtime" -name 'libclang_rt.profile-x86_64.a' | head -1)
[ -f "$runtime" ] || { echo "pgo-profile: no libclang_rt.profile in the Swift toolchain" >&2; exit 1; }
rm -rf "$scratch"  # a clean build: the incremental driver missed a changed frontend option
LTO= PROFILE= ORDER_FILE= scripts/release-build.sh --scratch-path "$scratch" -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate \
    -Xlinker "$runtime" -Xlinker -u__llvm_profile_runtime
. scripts/serving-mix.sh
trap mix_cleanup EXIT
mix_setup pgo
mkdir -p "$work/raw"
# The benchmark's candidate configuration (no access log, as `make bench` runs it), plus a TLS listener.
mix_start "$scratch/release/partgate" LLVM_PROFILE_FILE="$work/raw/partgate-%p.profraw"
mix_run 64 5 8 2 2
kill -TERM "$vp"
status=0
wait "$vp" || status=$?
vp=
[ "$status" = 0 ] || { echo "pgo-profile: partgate exited with $status" >&2; cat "$work/partgate.log" >&2; exit 1; }
"$profdata_tool" merge --sparse -o scripts/partgate.profdata "$work"/raw/*.profraw
echo "scripts/partgate.profdata: $(stat -c %s scripts/partgate.profdata) bytes"
