#!/usr/bin/env bash
# Scale of the OpenMP model: records and analyses (wall time, peak RSS, trace size)
#   - bench/tracing/omp_dynamic_chunks.c: a loop of CHUNKS iterations, schedule(dynamic, 1)
#     (default 10^6 chunks, each a process), and
#   - bench/tracing/omp_fib_tasks.c: recursive tasks joined by taskwait (FIB_N = 28: about
#     10^6 tasks),
# built with clang -O2 through firstrace-cc and run with a team of THREADS (default 4).
# Each analysis is stopped after LIMIT seconds (default 300) or when it needs more than
# MEMORY_MIB of address space (default 4096: the machine is shared).
#
#   bench/openmp/scale.sh [BUILD_DIR]
#   CHUNKS=100000 FIB_N=20 bench/openmp/scale.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
chunks=${CHUNKS:-1000000}
fib_n=${FIB_N:-28}
limit=${LIMIT:-300}
memory_mib=${MEMORY_MIB:-4096}
export OMP_NUM_THREADS=${THREADS:-4}
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-omp-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ ! -x /usr/bin/time ]; then
  echo "scale.sh: needs /usr/bin/time (Debian package 'time')" >&2
  exit 2
fi

run() { # name source arg
  local name=$1 src=$2 arg=$3
  FIRSTRACE_CC=clang "$bin/firstrace-cc" -O2 -g -fopenmp "$src" -o "$work/$name"
  /usr/bin/time -f "%e %M" -o "$work/rec" "$bin/firstrace" record -q -o "$work/$name.trace" -- \
    "$work/$name" "$arg" >/dev/null
  local kib
  kib=$(( $(du -sb "$work/$name.trace" | cut -f1) / 1024 ))
  local rc=0
  (
    ulimit -v $((memory_mib * 1024))
    exec /usr/bin/time -f "%e %M" -o "$work/ana" timeout "$limit" "$bin/firstrace" analyze -q \
      "$work/$name.trace"
  ) >"$work/$name.out" 2>&1 || rc=$?
  read -r rw rm <"$work/rec"
  local aw am
  read -r aw am < <(tail -1 "$work/ana")
  local summary
  summary=$(head -1 "$work/$name.out")
  [ "$rc" = 124 ] && summary="stopped after $limit s"
  [ "$rc" != 0 ] && [ "$rc" != 124 ] && summary="failed (exit $rc; over $memory_mib MiB?): $summary"
  printf '| %s %s | %s s / %d MiB | %d KiB | %s s / %d MiB | %s |\n' "$name" "$arg" "$rw" \
    $((rm / 1024)) "$kib" "$aw" $((am / 1024)) "$summary"
}

printf '| program | record wall / RSS | trace | analyse wall / RSS | result |\n|---|---|---:|---|---|\n'
run omp_dynamic_chunks "$root/bench/tracing/omp_dynamic_chunks.c" "$chunks"
run omp_fib_tasks "$root/bench/tracing/omp_fib_tasks.c" "$fib_n"
