#!/usr/bin/env bash
# The dashboard's browser suite: installs what it needs if missing (setup.sh), builds the emulator and
# the demo, then drives headless Chromium against them (dashboard_test.py). Screenshots and the
# measured latency go to Tests/Browser/artefacts/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tests/Browser/setup.sh
swift build --product config-emulator
swift build --product config-demo
python3 Tests/Browser/dashboard_test.py --bin "$(swift build --show-bin-path)" --artefacts Tests/Browser/artefacts
