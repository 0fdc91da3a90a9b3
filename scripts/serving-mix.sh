# The benchmark's serving mix through one partgate, for the scripts that profile a build (sourced by
# scripts/order-file.sh and scripts/pgo-profile.sh; not run on its own).
#   mix_setup NAME          a work directory ($work), certificates, bodies, the benchmark's TLS sink (started here
#                           if it is not running, and stopped again on exit), a 16 MiB file and two free ports
#   mix_start BINARY [VAR=VALUE ...]
#                           partgate as the benchmark's candidate (bench/partgate-candidate.sh, one worker) on a
#                           plain and a TLS listener, with the extra environment given; $vp is its pid
#   mix_run PLAIN_CONNECTIONS PLAIN_SECONDS TLS_CONNECTIONS TLS_SECONDS UPLOADS
#                           small POSTs (wrk) on the plain and then the TLS listener, then UPLOADS uploads of the
#                           file with Content-Length and as many chunked, to each listener; any other answer than
#                           200 fails the script
# The caller's EXIT trap is mix_cleanup: partgate (if still running), the sink if started here, the work directory.

mix_setup() {
    work=$(mktemp -d --tmpdir "partgate-$1.XXXXXX")
    mix_name=$1
    vp=
    started_sink=0
    . bench/harness/env.sh
    bench/harness/gen-certs.sh >/dev/null
    bench/harness/gen-bodies.sh >/dev/null
    if ! grep -q '^sink running' <<< "$(bench/harness/servers.sh status 2>/dev/null || true)"; then
        bench/harness/servers.sh start sink >/dev/null
        started_sink=1
    fi
    head -c 16M /dev/urandom > "$work/file.bin"
    port=$(mix_free_port)
    tls_port=$(mix_free_port)
}

mix_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mix_start() {
    local binary=$1
    shift
    env "$@" LISTEN_PORT="$port" UPSTREAM_URL="$UPSTREAM_URL" UPSTREAM_HOST="$UPSTREAM_HOST" \
        UPSTREAM_CA="$UPSTREAM_CA" TLS_LISTEN_PORT="$tls_port" TLS_CERTIFICATE="$CERT_DIR/server-bundle.pem" \
        TLS_KEY="$CERT_DIR/server.key" bench/partgate-candidate.sh "$binary" > "$work/partgate.log" 2>&1 &
    vp=$!
    wait_port "$port" 120
    wait_port "$tls_port" 30
}

mix_run() {
    local url te code _
    BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c"$1" -d"$2"s --timeout 10s \
        -s "$BENCH_DIR/wrk/multipart.lua" "http://127.0.0.1:$port/" | grep '^WRK'
    BODY_FILE=$SMALL_BODY CONTENT_TYPE=$CONTENT_TYPE wrk -t1 -c"$3" -d"$4"s --timeout 10s \
        -s "$BENCH_DIR/wrk/multipart.lua" "https://127.0.0.1:$tls_port/" | grep '^WRK'
    for url in "http://127.0.0.1:$port/" "https://localhost:$tls_port/"; do
        for te in "" "Transfer-Encoding: chunked"; do
            for _ in $(seq 1 "$5"); do
                code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$UPSTREAM_CA" \
                    --resolve "localhost:$tls_port:127.0.0.1" ${te:+-H "$te"} -F a=1 -F "f=@$work/file.bin" "$url")
                [ "$code" = 200 ] || { echo "$mix_name: upload to $url answered $code" >&2; exit 1; }
            done
        done
    done
}

mix_cleanup() {
    [ -n "${vp:-}" ] && kill "$vp" 2>/dev/null && wait "$vp" 2>/dev/null
    [ "${started_sink:-0}" = 1 ] && bench/harness/servers.sh stop sink >/dev/null 2>&1
    [ -n "${work:-}" ] && rm -rf "$work"
    return 0
}
