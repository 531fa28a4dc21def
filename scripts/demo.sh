#!/usr/bin/env bash
# Set-up, build, then the main job twice: analyze the thesis' running example (an STD trace),
# and trace + analyze a real C program with the same bug (samples/workq-racy.c).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bin=$PWD/build/bin
echo
echo "== firstrace analyze samples/traces/figure-2-1.std --ordering approximate"
"$bin/firstrace" analyze samples/traces/figure-2-1.std --ordering approximate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo
echo "== firstrace-cc -g -O1 -pthread samples/workq-racy.c; firstrace record; firstrace analyze"
"$bin/firstrace-cc" -g -O1 -pthread samples/workq-racy.c -o "$work/workq-racy"
"$bin/firstrace" record -o "$work/workq.trace" -- "$work/workq-racy" >/dev/null
"$bin/firstrace" analyze "$work/workq.trace" --db "$work/workq.db"
echo
echo "== firstrace report workq.db --first-only --format markdown"
"$bin/firstrace" report "$work/workq.db" --first-only --format markdown
