#!/usr/bin/env bash
# Set-up, build, and run every test of the default suite (heavy suites: scripts/test.sh heavy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
preset=${1:-default}
QT_QPA_PLATFORM=offscreen ctest --preset "$preset"
