#!/usr/bin/env bash
# Installs what the browser suite needs when it is missing: Debian's chromium and chromium-driver
# (apt-get), and selenium for python3 (pip). Nothing else is downloaded: selenium is pointed at the
# system's chromedriver, so it never fetches a driver or a browser of its own.
set -euo pipefail

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        chromium chromium-driver fonts-dejavu-core >/dev/null
fi
if ! python3 -c 'import selenium' 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check 'selenium>=4.10'
fi
chromium --version
chromedriver --version
python3 -c 'import selenium; print("selenium", selenium.__version__)'
