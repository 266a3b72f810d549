#!/usr/bin/env bash
# Installs what the tinyproxy suite of the socket client needs when it is missing: Debian's tinyproxy
# (apt-get). The package's service is not started here (the suite runs its own tinyproxy on a free port).
set -euo pipefail

if ! command -v tinyproxy >/dev/null; then
    if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends tinyproxy >/dev/null
fi
tinyproxy -v
