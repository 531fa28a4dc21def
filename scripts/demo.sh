#!/usr/bin/env bash
# Set-up, build, and analyze the thesis' running example (Figure 2.1) in both orderings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo
echo "== firstrace analyze samples/traces/figure-2-1.std --ordering approximate"
build/bin/firstrace analyze samples/traces/figure-2-1.std --ordering approximate
