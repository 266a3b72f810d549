#!/usr/bin/env bash
# `make check-openssl`: installs what the check needs when it is missing (Debian's libssl-dev for the
# OpenSSL headers, g++ when no C++ compiler is found; apt-get, as Tests/Browser/setup.sh installs chromium),
# then compiles the probe that checks OpenSSLLibrary.swift against the headers (Scripts/check-openssl.py).
set -euo pipefail
cd "$(dirname "$0")/.."

compiler=""
for candidate in "${CXX:-}" c++ g++ clang++; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null; then compiler=$candidate; break; fi
done
packages=()
[ -n "$compiler" ] || { packages+=(g++); compiler=g++; }
if [ ${#packages[@]} -gt 0 ] || ! printf '#include <openssl/ssl.h>\n' | "$compiler" -x c++ -fsyntax-only - 2>/dev/null; then
    packages+=(libssl-dev)
fi
if [ ${#packages[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
CXX=$compiler python3 Scripts/check-openssl.py
