#!/usr/bin/env bash
# Tracing overhead and trace size: every sample and the compute-heavy shared_arrays program,
# built plain (gcc -O2), with firstrace-cc (gcc, recorded with `firstrace record`), with gcc
# -fsanitize=thread and with clang -fsanitize=thread; the OpenMP form of shared_arrays also
# plain and under clang + Archer (Archer only handles OpenMP programs: for a pthread program it
# adds nothing to clang's ThreadSanitizer, so the pthread rows compare with TSan of both
# compilers). Prints a Markdown table: median wall and CPU (user + sys) time of RUNS runs, the
# slowdown against the plain build (by CPU time, or by wall time for programs too short to
# measure CPU time), firstrace's trace size, peak RSS.
#
#   bench/tracing/run.sh [BUILD_DIR]        (default: build; needs firstrace, firstrace-cc built)
#   RUNS=5 SHARED_ARRAYS_ARGS="4 1048576 4096 20 64" bench/tracing/run.sh
#   OPENMP_ONLY=1 bench/tracing/run.sh     (only the OpenMP comparison with clang + Archer)
#   ONLY="shared_arrays parq" bench/tracing/run.sh   (only these programs, then the OpenMP line)
# A sample that does not build plain or under TSan (it calls the TSan fiber API, say) gets a
# row saying so.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
runs=${RUNS:-3}
sa_args=${SHARED_ARRAYS_ARGS:-4 1048576 4096 40 64}
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
archer=/usr/lib/llvm-14/lib/libarcher.so
export TSAN_OPTIONS="exitcode=0 report_bugs=0 ignore_noninstrumented_modules=1"
if [ ! -x /usr/bin/time ]; then
  echo "run.sh: needs /usr/bin/time (Debian package 'time')" >&2
  exit 2
fi

# "wall cpu rss": median wall time and median CPU time (user + sys, seconds; the machine may
# be shared, CPU time is the steadier figure) over $runs runs, and peak RSS (MiB)
measure() {
  local walls=() cpus=() rss=0
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%U %S %M" -o "$work/usage" "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    local u s m
    read -r u s m < <(tail -1 "$work/usage")
    walls+=($(( (end - start) / 1000 )))
    cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  local mid=$(( (runs + 1) / 2 ))
  local wall cpu
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${mid}p")
  cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")
  awk -v w="$wall" -v c="$cpu" -v kb="$rss" 'BEGIN { printf "%.3f %.3f %d\n", w / 1e6, c / 1e3, kb / 1024 }'
}

# slowdown of "wall cpu" $1 against "wall cpu" $2: by CPU time when the plain run used at least
# 50 ms of it, else by wall time (tiny programs: start-up dominates)
ratio() {
  awk -v aw="${1% *}" -v ac="${1#* }" -v bw="${2% *}" -v bc="${2#* }" 'BEGIN {
    if (bc >= 0.05) printf "%.1fx", ac / bc; else if (bw > 0) printf "%.1fx", aw / bw; else print "-" }'
}

if [ -z "${OPENMP_ONLY:-}" ]; then
printf '| program | plain wall / CPU s | firstrace wall / CPU s | slowdown | trace KiB | RSS MiB | gcc TSan wall / CPU s | slowdown | RSS MiB | clang TSan wall / CPU s | slowdown | RSS MiB |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
programs=("$root"/samples/*.c "$root/bench/tracing/shared_arrays.c" "$root/bench/tracing/lock_pairs.c"
          "$root/bench/tracing/calls_only.c" "$root/bench/tracing/scattered_blocks.c")
for src in "${programs[@]}"; do
  name=$(basename "$src" .c)
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
  args=()
  [ "$name" = shared_arrays ] && read -r -a args <<<"$sa_args"
  if ! { gcc -O2 -g -pthread "$src" -o "$work/$name.plain" &&
         "$bin/firstrace-cc" -O2 -g -pthread "$src" -o "$work/$name.fr" &&
         gcc -O2 -g -fsanitize=thread "$src" -o "$work/$name.tsan-gcc" &&
         clang -O2 -g -fsanitize=thread "$src" -o "$work/$name.tsan-clang"; } >"$work/build.log" 2>&1; then
    printf '| %s | does not build four ways (%s) | | | | | | | | | | |\n' "$name" \
      "$(sed -n 's/.*undefined reference to .\([A-Za-z_0-9]*\).*/needs \1/p' "$work/build.log" | head -1)"
    continue
  fi
  read -r pw pc _ <<<"$(measure "$work/$name.plain" "${args[@]}")"
  read -r fw fc fr_rss <<<"$(measure "$bin/firstrace" record -q -o "$work/$name.trace" -- "$work/$name.fr" "${args[@]}")"
  trace_kib=$(( $(du -sb "$work/$name.trace" | cut -f1) / 1024 ))
  read -r gw gc tg_rss <<<"$(measure "$work/$name.tsan-gcc" "${args[@]}")"
  read -r cw cc tc_rss <<<"$(measure "$work/$name.tsan-clang" "${args[@]}")"
  printf '| %s | %s / %s | %s / %s | %s | %s | %s | %s / %s | %s | %s | %s / %s | %s | %s |\n' "$name" \
    "$pw" "$pc" "$fw" "$fc" "$(ratio "$fw $fc" "$pw $pc")" "$trace_kib" "$fr_rss" \
    "$gw" "$gc" "$(ratio "$gw $gc" "$pw $pc")" "$tg_rss" "$cw" "$cc" "$(ratio "$cw $cc" "$pw $pc")" "$tc_rss"
done
fi

if [ -f "$archer" ]; then
  src=$root/bench/tracing/shared_arrays_omp.c
  read -r -a args <<<"$sa_args"
  clang -O2 -g -fopenmp "$src" -o "$work/omp.plain"
  clang -O2 -g -fopenmp -fsanitize=thread "$src" -o "$work/omp.tsan"
  read -r pw pc _ <<<"$(measure "$work/omp.plain" "${args[@]}")"
  export OMP_TOOL_LIBRARIES=$archer
  read -r aw ac ar_rss <<<"$(measure "$work/omp.tsan" "${args[@]}")"
  unset OMP_TOOL_LIBRARIES
  # firstrace on the same program, same compiler (OMPT + logical processes)
  FIRSTRACE_CC=clang "$bin/firstrace-cc" -O2 -g -fopenmp "$src" -o "$work/omp.fr"
  read -r fw fc fr_rss <<<"$(measure "$bin/firstrace" record -q -o "$work/omp.trace" -- "$work/omp.fr" "${args[@]}")"
  printf '\nOpenMP form of shared_arrays (%s): plain %s / %s s; clang + Archer %s / %s s (%s), RSS %s MiB; firstrace (clang) %s / %s s (%s), RSS %s MiB\n' \
    "$sa_args" "$pw" "$pc" "$aw" "$ac" "$(ratio "$aw $ac" "$pw $pc")" "$ar_rss" \
    "$fw" "$fc" "$(ratio "$fw $fc" "$pw $pc")" "$fr_rss"
fi
