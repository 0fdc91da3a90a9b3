#!/usr/bin/env bash
# Installs with apt what the benchmark harness runs (bench/harness/README.md), only the packages missing:
# nginx-light (the sink and the nginx baseline), haproxy, wrk, curl, openssl.
set -euo pipefail
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
for p in nginx-light haproxy wrk curl openssl; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
