#!/bin/bash
# Precision and recall of firstrace and of clang ThreadSanitizer on a directory of small
# pthread / C11 / C++ test programs, the kind race detectors' own test suites hold.
#
#   bench/peer_suite/evaluate.sh BUILD_DIR [PROGRAM_DIR ...]
#
# Default program directories: samples/ and tests/peer_corpus/. A program is racy when its
# source has a `// RACE` marker (samples/README.md), race-free otherwise. Each is built with
# firstrace-cc (-O1; FIRSTRACE_COMPILER=clang by default, the same instrumentation as TSan's;
# gcc 12 inlines some memset/memcpy calls without instrumenting them) and with
# clang -fsanitize=thread (-O1), run once by each tool; a tool
# "reports a race" when firstrace analyze finds an apparent race / TSan prints a data race
# warning. A program that does not build or whose run fails counts as a miss for a racy program
# and as a false report for a race-free one (what a user would see: no usable answer).
# Prints one line per program and, per tool, TP FP FN TN, precision and recall.
set -u
build=$(cd "${1:?usage: evaluate.sh BUILD_DIR [PROGRAM_DIR ...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=("$root/samples" "$root/tests/peer_corpus")
work=$(mktemp -d "${TMPDIR:-/tmp}/peer-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT

declare -A tp fp fn tn
for tool in firstrace tsan; do tp[$tool]=0 fp[$tool]=0 fn[$tool]=0 tn[$tool]=0; done

count() { # tool expected(0/1) reported(0/1/error)
    local tool=$1 expected=$2 got=$3
    [ "$got" = error ] && got=$((1 - expected))
    if [ "$expected" = 1 ] && [ "$got" = 1 ]; then tp[$tool]=$((tp[$tool] + 1))
    elif [ "$expected" = 1 ]; then fn[$tool]=$((fn[$tool] + 1))
    elif [ "$got" = 1 ]; then fp[$tool]=$((fp[$tool] + 1))
    else tn[$tool]=$((tn[$tool] + 1)); fi
}

run_firstrace() { # source exe -> 0/1/error
    local src=$1 exe=$2 std=() wrapper=firstrace-cc cc=${FIRSTRACE_COMPILER:-clang} cxx=clang++
    [ "$cc" = gcc ] && cxx=g++
    case $src in *.cpp) wrapper=firstrace-c++ std=(-std=c++20) ;; esac
    FIRSTRACE_CC=$cc FIRSTRACE_CXX=$cxx "$build/bin/$wrapper" -g -O1 -pthread "${std[@]}" "$src" \
        -o "$exe" >"$exe.build.log" 2>&1 || { echo error; return; }
    timeout 120 "$build/bin/firstrace" record -q -o "$exe.trace" -- "$exe" >/dev/null 2>&1 ||
        { echo error; return; }
    local out
    out=$(timeout 300 "$build/bin/firstrace" analyze "$exe.trace" -q 2>/dev/null) || { echo error; return; }
    # one summary per process trace (the program's, then its fork and exec children's): a
    # race in any of them is a race reported
    if grep -qE '(^|[^0-9])[1-9][0-9]* apparent races' <<<"$out"; then echo 1; else echo 0; fi
}

run_tsan() { # source exe -> 0/1/error
    local src=$1 exe=$2 compiler=clang std=()
    case $src in *.cpp) compiler=clang++ std=(-std=c++20) ;; esac
    $compiler -fsanitize=thread -g -O1 -pthread "${std[@]}" "$src" -o "$exe" \
        >"$exe.build.log" 2>&1 || { echo error; return; }
    local log=$exe.tsan.log
    TSAN_OPTIONS="halt_on_error=0 exitcode=0 report_signal_unsafe=0" timeout 120 "$exe" \
        >/dev/null 2>"$log" || { echo error; return; }
    if grep -q "WARNING: ThreadSanitizer: data race" "$log"; then echo 1; else echo 0; fi
}

printf "%-40s %-8s %-10s %-10s\n" program expected firstrace tsan
for dir in "${dirs[@]}"; do
    for src in "$dir"/*.c "$dir"/*.cpp; do
        [ -f "$src" ] || continue
        name=$(basename "$src")
        expected=0
        grep -q "// RACE" "$src" && expected=1
        f=$(run_firstrace "$src" "$work/fr-${name%.*}")
        t=$(run_tsan "$src" "$work/ts-${name%.*}")
        count firstrace $expected "$f"
        count tsan $expected "$t"
        printf "%-40s %-8s %-10s %-10s\n" "$name" "$expected" "$f" "$t"
    done
done
echo
for tool in firstrace tsan; do
    awk -v tool=$tool -v tp=${tp[$tool]} -v fp=${fp[$tool]} -v fn=${fn[$tool]} -v tn=${tn[$tool]} \
        'BEGIN { p = tp + fp ? tp / (tp + fp) : 1; r = tp + fn ? tp / (tp + fn) : 1;
                 printf "%-10s TP %d FP %d FN %d TN %d  precision %.2f recall %.2f\n",
                        tool, tp, fp, fn, tn, p, r }'
done
