#!/usr/bin/env bash
# Tracing cost of the shadow stack (issue 12): the tracing benchmark (shared_arrays.c, README
# "Tracing benchmark") traced by firstrace with and without call stacks, in one run, next to
# clang ThreadSanitizer. "Without stacks" is the same firstrace-cc build minus the function
# entry/exit hooks (gcc --param=tsan-instrument-func-entry-exit=0): the access path is the
# same, the shadow stack is never pushed, every site has the empty stack. Also with
# -DCALL_PER_ELEMENT (a call per access: the shadow stack's worst case). Prints a Markdown
# table: median wall / CPU seconds of RUNS runs, slowdowns against the plain build (CPU time),
# and how much the slowdown rises with stacks.
#
#   bench/tracing/stacks.sh [BUILD_DIR]    (default: build; needs firstrace, firstrace-cc built)
#   RUNS=5 SHARED_ARRAYS_ARGS="4 1048576 4096 40 64" bench/tracing/stacks.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
runs=${RUNS:-3}
sa_args=${SHARED_ARRAYS_ARGS:-4 1048576 4096 40 64}
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-stacks.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TSAN_OPTIONS="exitcode=0 report_bugs=0"
read -r -a args <<<"$sa_args"

# median CPU time (user + sys) and wall time over $runs runs: "wall cpu"
measure() {
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    local start end u s
    start=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$work/usage" "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    read -r u s < <(tail -1 "$work/usage")
    walls+=($(( (end - start) / 1000 )))
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
  done
  local mid=$(( (runs + 1) / 2 ))
  awk -v w="$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")" \
      -v c="$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")" \
      'BEGIN { printf "%.3f %.3f\n", w / 1e6, c / 1e3 }'
}
slowdown() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

printf '| program | plain CPU s | firstrace without stacks | firstrace with stacks | rise | clang TSan |\n'
printf '|---|---:|---:|---:|---:|---:|\n'
for variant in "" -DCALL_PER_ELEMENT; do
  src=$root/bench/tracing/shared_arrays.c
  name=shared_arrays${variant:+ $variant}
  gcc -O2 -g -pthread $variant "$src" -o "$work/plain"
  "$bin/firstrace-cc" -O2 -g -pthread $variant "$src" -o "$work/stacks"
  "$bin/firstrace-cc" -O2 -g -pthread $variant --param=tsan-instrument-func-entry-exit=0 \
    "$src" -o "$work/nostacks"
  clang -O2 -g -fsanitize=thread $variant "$src" -o "$work/tsan"
  read -r _ pc <<<"$(measure "$work/plain" "${args[@]}")"
  read -r _ nc <<<"$(measure "$bin/firstrace" record -q -o "$work/n.trace" -- "$work/nostacks" "${args[@]}")"
  rm -rf "$work/n.trace"
  read -r _ sc <<<"$(measure "$bin/firstrace" record -q -o "$work/s.trace" -- "$work/stacks" "${args[@]}")"
  rm -rf "$work/s.trace"
  read -r _ tc <<<"$(measure "$work/tsan" "${args[@]}")"
  ns=$(slowdown "$nc" "$pc")
  ss=$(slowdown "$sc" "$pc")
  ts=$(slowdown "$tc" "$pc")
  rise=$(awk -v s="$sc" -v n="$nc" 'BEGIN { printf "%+.0f %%", (s / n - 1) * 100 }')
  printf '| %s | %s | %s s (%s×) | %s s (%s×) | %s | %s s (%s×) |\n' "$name" "$pc" "$nc" "$ns" \
    "$sc" "$ss" "$rise" "$tc" "$ts"
done
