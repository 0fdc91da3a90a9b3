#!/usr/bin/env bash
# Peak RSS by body size: one upload of each size through partgate, nginx and HAProxy (the harness's
# baselines), Content-Length and chunked. Issue 3 asks for at most 16 MiB during a 1 GiB upload, and the same
# for 1 MiB and 4 GiB bodies: memory that does not grow with the body.
#   scripts/bench-rss.sh [SIZE_MIB ...]       default: 1 1024 4096
# Installs the harness's packages when missing (scripts/bench-deps.sh) and builds partgate release (as make
# build) unless SKIP_BUILD=1. Bodies (one text field, one binary part of
# deterministic bytes) go to $BENCH_WORK/bodies/rss-<MiB>.multipart; those over 1 GiB are deleted at the end
# unless KEEP_BODIES=1. The sink spills each body to tmpfs while reading it (RAM: about twice the largest).
# Prints one RSS line per size, mode and proxy (peak = largest VmHWM of the proxy's processes, reset before
# each upload; check=ok when the sink saw every byte), then a table.
set -euo pipefail
export LC_ALL=C  # ${#var} counts bytes
cd "$(dirname "$0")/.."
root=$PWD
. bench/harness/env.sh
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 1024 4096)
scripts/bench-deps.sh
[ "${SKIP_BUILD:-0}" = 1 ] || scripts/release-build.sh
binary=$root/.build/release/partgate
[ -x "$binary" ] || die "no $binary: run make build"

bench/harness/gen-certs.sh
mkdir -p "$BODY_DIR"
body_for() { # body_for MIB: path of a body of exactly MIB MiB (written once)
    local mib=$1 file=$BODY_DIR/rss-$1.multipart total head tail
    total=$((mib * 1024 * 1024))
    if [ ! -s "$file" ] || [ "$(stat -c %s "$file")" != "$total" ]; then
        # printf -v: command substitution would drop the trailing line feeds.
        printf -v head -- '--%s\r\nContent-Disposition: form-data; name="title"\r\n\r\nrss by body size\r\n--%s\r\nContent-Disposition: form-data; name="file"; filename="blob.bin"\r\nContent-Type: application/octet-stream\r\n\r\n' "$BOUNDARY" "$BOUNDARY"
        printf -v tail -- '\r\n--%s--\r\n' "$BOUNDARY"
        log "writing $file ($mib MiB)"
        { printf '%s' "$head"
          head -c $((total - ${#head} - ${#tail})) /dev/zero |
              openssl enc -aes-128-ctr -nosalt -K 72737362792d626f64792d73697a6531 -iv 00000000000000000000000000000000
          printf '%s' "$tail"; } > "$file.tmp"
        mv "$file.tmp" "$file"
    fi
    echo "$file"
}

started=()
cleanup() {
    for s in "${started[@]}"; do bench/harness/servers.sh stop "$s" >/dev/null 2>&1 || true; done
    if [ "${KEEP_BODIES:-0}" != 1 ]; then
        for mib in "${sizes[@]}"; do [ "$mib" -le 1024 ] || rm -f "$BODY_DIR/rss-$mib.multipart"; done
    fi
}
trap cleanup EXIT
for s in sink nginx haproxy; do
    if ! bench/harness/servers.sh status 2>/dev/null | grep -q "^$s running"; then
        bench/harness/servers.sh start "$s" >/dev/null
        started+=("$s")
    fi
done
bench/harness/servers.sh stop candidate >/dev/null 2>&1 || true
bench/harness/servers.sh start candidate "$root/bench/partgate-candidate.sh $binary" >/dev/null
started+=(candidate)

declare -A url=([partgate]=http://127.0.0.1:$CAND_PORT/upload [nginx]=http://127.0.0.1:$NGINX_PORT/upload
                [haproxy]=http://127.0.0.1:$HAPROXY_PORT/upload)
declare -A pidf=([partgate]=$RUN_DIR/candidate.pid [nginx]=$RUN_DIR/nginx.pid [haproxy]=$RUN_DIR/haproxy.pid)
declare -A peak
status=0
for mib in "${sizes[@]}"; do
    body=$(body_for "$mib")
    for mode in cl chunked; do
        for proxy in partgate nginx haproxy; do
            line=$(bench/harness/upload.sh -m "$mode" -f "$body" -p "${pidf[$proxy]}" -l "$proxy" "${url[$proxy]}")
            mib_peak=$(grep -o 'proxy_peak_mib=[^ ]*' <<< "$line" | cut -d= -f2)
            check=$(grep -o 'check=[^ ]*' <<< "$line" | cut -d= -f2)
            rate=$(grep -o 'MB_s=[^ ]*' <<< "$line" | cut -d= -f2)
            echo "RSS size_mib=$mib mode=$mode proxy=$proxy peak_mib=$mib_peak MB_s=$rate check=$check"
            peak[$mib,$mode,$proxy]=$mib_peak
            [ "$check" = ok ] || status=1
        done
    done
done

printf '\n| body | mode | partgate | nginx | HAProxy |\n|---|---|---|---|---|\n'
for mib in "${sizes[@]}"; do
    for mode in cl chunked; do
        printf '| %s MiB | %s | %s | %s | %s |\n' "$mib" "$mode" "${peak[$mib,$mode,partgate]}" \
            "${peak[$mib,$mode,nginx]}" "${peak[$mib,$mode,haproxy]}"
    done
done
exit $status
