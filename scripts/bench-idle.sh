#!/usr/bin/env bash
# Heap per idle keep-alive client connection: partgate, nginx and HAProxy (the harness's baselines), each a fresh
# process, 1,000 connections that each sent one request and stay open (scripts/idle_memory.py).
#   scripts/bench-idle.sh
# Cases: after the benchmark's small multipart POST with the connections opened back to back (burst) and 5 ms apart
# (spread: partgate drops what an idle connection keeps for its next request after 1 s, and that memory serves
# the connections after it), after a GET, and with no request. Installs the harness's packages when missing and
# builds partgate release unless SKIP_BUILD=1. Needs `ulimit -n` above 2,100 (raised to the hard limit when lower).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. bench/harness/env.sh
scripts/bench-deps.sh
[ "${SKIP_BUILD:-0}" = 1 ] || scripts/release-build.sh
binary=$root/.build/release/partgate
[ -x "$binary" ] || die "no $binary: run make build"
[ "$(ulimit -n)" -ge 4096 ] || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
bench/harness/gen-certs.sh >/dev/null
bench/harness/gen-bodies.sh >/dev/null

started=()
cleanup() {
    for s in "${started[@]}"; do bench/harness/servers.sh stop "$s" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
if ! bench/harness/servers.sh status 2>/dev/null | grep -q "^sink running"; then
    bench/harness/servers.sh start sink >/dev/null
    started+=(sink)
fi

declare -A port=([partgate]=$CAND_PORT [nginx]=$NGINX_PORT [haproxy]=$HAPROXY_PORT)
declare -A result
cases=("post 0 burst" "post 0.005 spread" "get 0 get" "none 0 none")
for proxy in partgate nginx haproxy; do
    for case in "${cases[@]}"; do
        read -r request gap name <<< "$case"
        # A fresh process for each case: no memory freed by an earlier case to reuse.
        if [ "$proxy" = partgate ]; then
            bench/harness/servers.sh start candidate "$root/bench/partgate-candidate.sh $binary" >/dev/null
            pid=$(cat "$RUN_DIR/candidate.pid")
            server=candidate
        else
            bench/harness/servers.sh start "$proxy" >/dev/null
            pid=$(cat "$RUN_DIR/$proxy.pid")
            server=$proxy
        fi
        started+=("$server")
        line=$(SMALL_BODY=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE \
            scripts/idle_memory.py "${port[$proxy]}" "$pid" --request "$request" --gap "$gap" --label "$proxy/$name")
        echo "$line"
        result[$proxy,$name]=$(grep -o 'kib_per_connection=[^ ]*' <<< "$line" | cut -d= -f2)
        bench/harness/servers.sh stop "$server" >/dev/null
    done
done

printf '\nKiB of heap per idle keep-alive connection (RssAnon growth over 1,000 connections):\n\n'
printf '| proxy | after a multipart POST | the same, 5 ms apart | after a GET | no request |\n|---|---:|---:|---:|---:|\n'
for proxy in partgate nginx haproxy; do
    printf '| %s | %s | %s | %s | %s |\n' "$proxy" "${result[$proxy,burst]}" "${result[$proxy,spread]}" \
        "${result[$proxy,get]}" "${result[$proxy,none]}"
done
