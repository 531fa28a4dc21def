#!/usr/bin/env bash
# Allocator overhead: malloc_pairs (8 threads, 10^7 malloc/free pairs by default) built plain
# (gcc -O2), with firstrace-cc (recorded with `firstrace record`; heap blocks, their frees as
# writes and the free -> reuse ordering are all recorded), and with gcc and clang
# -fsanitize=thread. Prints a Markdown table of median wall and CPU time over RUNS runs and the
# slowdown by CPU time.
# BASELINE=DIR adds a row for another firstrace build (DIR/bin/firstrace-cc and firstrace), e.g.
# the runtime before a change, measured in the same run.
#   bench/malloc/run.sh [BUILD_DIR]        RUNS=3 THREADS=8 PAIRS=10000000 BASELINE=
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
runs=${RUNS:-3}
threads=${THREADS:-8}
pairs=${PAIRS:-10000000}
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-malloc.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TSAN_OPTIONS="exitcode=0 report_bugs=0"

measure() { # "wall cpu rss": medians over $runs runs (seconds, MiB)
  local walls=() cpus=() rss=0
  for _ in $(seq "$runs"); do
    local start end u s m
    start=$(date +%s%N)
    /usr/bin/time -f "%U %S %M" -o "$work/usage" "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    read -r u s m < <(tail -1 "$work/usage")
    walls+=($(( (end - start) / 1000 )))
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
    [ "$m" -gt "$rss" ] && rss=$m
    rm -rf "$work/trace"
  done
  local mid=$(( (runs + 1) / 2 ))
  awk -v w="$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" \
      -v c="$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" -v kb="$rss" \
      'BEGIN { printf "%.2f %.2f %d\n", w / 1e6, c / 1e3, kb / 1024 }'
}

src=$root/bench/malloc/malloc_pairs.c
gcc -O2 -g -pthread "$src" -o "$work/plain"
"$bin/firstrace-cc" -O2 -g -pthread "$src" -o "$work/fr"
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE/bin/firstrace-cc" -O2 -g -pthread "$src" -o "$work/fr-baseline"
fi
gcc -O2 -g -fsanitize=thread "$src" -o "$work/tsan-gcc"
clang -O2 -g -fsanitize=thread "$src" -o "$work/tsan-clang"
read -r pw pc pr <<<"$(measure "$work/plain" "$threads" "$pairs")"
printf '| %s threads, %s pairs | wall s | CPU s | slowdown (CPU) | RSS MiB |\n|---|---:|---:|---:|---:|\n' "$threads" "$pairs"
printf '| plain | %s | %s | 1.0x | %s |\n' "$pw" "$pc" "$pr"
row() {
  local name=$1; shift
  read -r w c r <<<"$(measure "$@")"
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$w" "$c" "$(awk -v a="$c" -v b="$pc" 'BEGIN { printf "%.1fx", a / b }')" "$r"
}
if [ -n "${BASELINE:-}" ]; then
  row "firstrace (baseline)" "$BASELINE/bin/firstrace" record -q -o "$work/trace" -- "$work/fr-baseline" "$threads" "$pairs"
fi
row firstrace "$bin/firstrace" record -q -o "$work/trace" -- "$work/fr" "$threads" "$pairs"
row "gcc TSan" "$work/tsan-gcc" "$threads" "$pairs"
row "clang TSan" "$work/tsan-clang" "$threads" "$pairs"
