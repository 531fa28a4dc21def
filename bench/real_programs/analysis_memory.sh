#!/usr/bin/env bash
# Two builds of `firstrace analyze` on the same traces, alternated, under the 4 GiB address-space
# cap the project measures under: per run the CPU seconds (user + sys), the peak resident set
# after each stage (`analyze -v`), or where it ran out of memory. Then, unless --no-compare, the
# text and JSON reports of the two builds compared byte for byte (an analysis change that should
# not move results). DESIGN-NOTES "Analysis memory on xz -T4 (twentieth session)".
#
#   bench/real_programs/analysis_memory.sh [--rounds N] [--no-compare] OLD_FIRSTRACE NEW_FIRSTRACE TRACE...
#
# Run it under `nice -n 10` on a shared machine; a trace past 4 GiB uncapped takes that much
# memory for the comparison (the comparison runs uncapped, so that an old build that fails under
# the cap still gives its report).
set -u
rounds=2 compare=1
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --no-compare) compare=0; shift ;;
    *) break ;;
    esac
done
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
old=$1 new=$2
shift 2
status=0
for trace in "$@"; do
    echo "== $trace"
    for round in $(seq 1 "$rounds"); do
        for which in old new; do
            bin=$old
            [ "$which" = new ] && bin=$new
            out=$({ /usr/bin/time -f "TIME %U %S" prlimit --as=4294967296 "$bin" analyze -v -q \
                "$trace" >/dev/null; } 2>&1)
            cpu=$(echo "$out" | awk '/^TIME/ { printf "%.2f", $2 + $3 }')
            stages=$(echo "$out" | awk '/peak RSS/ { sub(/^ */, ""); sub(/: .*peak RSS /, " "); printf "%s; ", $0 }')
            failed=$(echo "$out" | grep -m1 -i 'out of memory')
            echo "$which round $round: CPU $cpu s; ${stages}${failed}"
        done
    done
    [ "$compare" = 1 ] || continue
    for format in text json; do
        if cmp -s <("$old" analyze --format "$format" "$trace" 2>&1) \
            <("$new" analyze --format "$format" "$trace" 2>&1); then
            echo "$format report: identical"
        else
            echo "$format report: DIFFERENT"
            status=1
        fi
    done
done
exit $status
