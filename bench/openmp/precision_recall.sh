#!/usr/bin/env bash
# Program-level precision and recall of firstrace and of clang + Archer on the OpenMP samples
# (samples/openmp/*.c), each run once with a team of THREADS (default 4). A sample is racy when
# its source marks a race (`// RACE`, `// RACE?`, `// ARTIFACT`, samples/README.md); a tool
# reports it racy when it shows at least one race (firstrace: an apparent race; Archer: a
# "WARNING: ThreadSanitizer: data race"). firstrace builds each sample with clang and with gcc
# (`firstrace-cc -fopenmp`, -O0 -g, as the e2e tests do; a `// CLANG-ONLY:` sample is n/a with
# gcc), Archer with clang (it has no gcc form).
#
#   bench/openmp/precision_recall.sh [BUILD_DIR]     (default: build)
#   THREADS=8 bench/openmp/precision_recall.sh
#   COMPILERS=clang bench/openmp/precision_recall.sh   (default: "clang gcc")
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
threads=${THREADS:-4}
compilers=${COMPILERS:-clang gcc}
archer=/usr/lib/llvm-14/lib/libarcher.so
work=$(mktemp -d "${TMPDIR:-/tmp}/firstrace-omp-eval.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=$threads

# tp fp fn tn per tool (fr_clang, fr_gcc, ar)
declare -A count=()
for tool in ar $(for c in $compilers; do echo "fr_$c"; done); do
  for k in tp fp fn tn; do count[${tool}_$k]=0; done
done
tally() { # tool truth(1/0) verdict(1/0/-)
  case "$2$3" in
    11) count[$1_tp]=$((count[$1_tp] + 1)) ;;
    01) count[$1_fp]=$((count[$1_fp] + 1)) ;;
    10) count[$1_fn]=$((count[$1_fn] + 1)) ;;
    00) count[$1_tn]=$((count[$1_tn] + 1)) ;;
  esac
}
verdict_word() { case "$1" in 1) echo race ;; 0) echo none ;; *) echo "n/a" ;; esac; }

header="| sample | marked |"
rule="|---|---|"
for c in $compilers; do
  header="$header firstrace $c |"
  rule="$rule---|"
done
printf '%s Archer |\n%s---|\n' "$header" "$rule"
for src in "$root"/samples/openmp/*.c; do
  name=$(basename "$src" .c)
  truth=0
  grep -qE '// (RACE|ARTIFACT)' "$src" && truth=1
  row="| $name | $(verdict_word "$truth") |"
  for c in $compilers; do
    fr=-
    if { [ "$c" = clang ] || ! grep -q '// CLANG-ONLY:' "$src"; } &&
      FIRSTRACE_CC=$c "$bin/firstrace-cc" -g -O0 -fopenmp "$src" -o "$work/$name.$c" 2>/dev/null &&
      "$bin/firstrace" record -q -o "$work/$name.$c.trace" -- "$work/$name.$c" >/dev/null 2>&1; then
      races=$("$bin/firstrace" analyze "$work/$name.$c.trace" -q 2>/dev/null | head -1 |
        sed -n 's/.*processes: \([0-9]*\) apparent races.*/\1/p')
      [ -n "$races" ] && fr=$([ "$races" -gt 0 ] && echo 1 || echo 0)
    fi
    tally "fr_$c" "$truth" "$fr"
    row="$row $(verdict_word "$fr") |"
  done
  ar=-
  if [ -f "$archer" ] && clang -g -O0 -fopenmp -fsanitize=thread "$src" -o "$work/$name.tsan" -lm 2>/dev/null; then
    if OMP_TOOL_LIBRARIES=$archer TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=0" \
      "$work/$name.tsan" >/dev/null 2>"$work/$name.tsan.err"; then
      ar=$(grep -q 'WARNING: ThreadSanitizer: data race' "$work/$name.tsan.err" && echo 1 || echo 0)
    fi
  fi
  tally ar "$truth" "$ar"
  printf '%s %s |\n' "$row" "$(verdict_word "$ar")"
done

summary() { # tool label
  local tp=${count[$1_tp]} fp=${count[$1_fp]} fn=${count[$1_fn]} tn=${count[$1_tn]}
  awk -v l="$2" -v tp="$tp" -v fp="$fp" -v fn="$fn" -v tn="$tn" 'BEGIN {
    p = tp + fp > 0 ? tp / (tp + fp) : 1; r = tp + fn > 0 ? tp / (tp + fn) : 1
    printf "%s: TP %d FP %d FN %d TN %d: precision %.2f, recall %.2f\n", l, tp, fp, fn, tn, p, r }'
}
echo
echo "$threads threads, $(ls "$root"/samples/openmp/*.c | wc -l) samples"
for c in $compilers; do summary "fr_$c" "firstrace ($c)"; done
summary ar "clang + Archer"
