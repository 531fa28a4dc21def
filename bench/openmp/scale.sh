#!/usr/bin/env bash
# Scale of the OpenMP model: records and analyses (wall time, peak RSS, trace size)
#   - bench/tracing/omp_dynamic_chunks.c: a loop of CHUNKS iterations, schedule(dynamic, 1)
#     (default 10^6 chunks, each a process), and
#   - bench/tracing/omp_fib_tasks.c: recursive tasks joined by taskwait (FIB_N = 28: about
#     10^6 tasks),
#   - bench/tracing/short_threads.c: SHORT_THREADS short-lived pthreads (default 10^5), joined
#     one after the other, then as many detached ones (issue 13),
# built with clang -O2 through firstrace-cc and run with a team of THREADS (default 4).
# Each analysis is stopped after LIMIT seconds (default 300) or when it needs more than
# MEMORY_MIB of address space (default 4096: the machine is shared).
#
#   bench/openmp/scale.sh [BUILD_DIR]
#   CHUNKS=100000 FIB_N=20 SHORT_THREADS=10000 bench/openmp/scale.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
chunks=${CHUNKS:-1000000}
fib_n=${FIB_N:-28}
short_threads=${SHORT_THREADS:-100000}
limit=${LIMIT:-300}
memory_mib=${MEMORY_MIB:-4096}
export OMP_NUM_THREADS=${THREADS:-4}
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-omp-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ ! -x /usr/bin/time ]; then
  echo "scale.sh: needs /usr/bin/time (Debian package 'time')" >&2
  exit 2
fi

run() { # name source args...
  local name=$1 src=$2
  shift 2
  local arg="$*"
  FIRSTRACE_CC=clang "$bin/firstrace-cc" -O2 -g -fopenmp -pthread "$src" -o "$work/$name"
  rm -rf "$work/$name.trace"
  /usr/bin/time -f "%e %M" -o "$work/rec" "$bin/firstrace" record -q -o "$work/$name.trace" -- \
    "$work/$name" "$@" >/dev/null
  local kib
  kib=$(( $(du -sb "$work/$name.trace" | cut -f1) / 1024 ))
  local rc=0
  (
    ulimit -v $((memory_mib * 1024))
    exec /usr/bin/time -f "%e %M %U %S" -o "$work/ana" timeout "$limit" "$bin/firstrace" analyze -q \
      "$work/$name.trace"
  ) >"$work/$name.out" 2>&1 || rc=$?
  read -r rw rm <"$work/rec"
  local aw am au as
  read -r aw am au as < <(tail -1 "$work/ana")
  local summary
  summary=$(head -1 "$work/$name.out")
  [ "$rc" = 124 ] && summary="stopped after $limit s"
  [ "$rc" != 0 ] && [ "$rc" != 124 ] && summary="failed (exit $rc; over $memory_mib MiB?): $summary"
  printf '| %s %s | %s s / %d MiB | %d KiB | %s s / %s s / %d MiB | %s |\n' "$name" "$arg" "$rw" \
    $((rm / 1024)) "$kib" "$aw" "$(awk "BEGIN { print $au + $as }")" $((am / 1024)) "$summary"
}

printf '| program | record wall / RSS | trace | analyse wall / CPU / RSS | result |\n|---|---|---:|---|---|\n'
run omp_dynamic_chunks "$root/bench/tracing/omp_dynamic_chunks.c" "$chunks"
run omp_fib_tasks "$root/bench/tracing/omp_fib_tasks.c" "$fib_n"
run short_threads "$root/bench/tracing/short_threads.c" "$short_threads" join
run short_threads "$root/bench/tracing/short_threads.c" "$short_threads" detach
