#!/usr/bin/env bash
# Real multithreaded programs from Debian's sources, built and run three ways: natively, with
# firstrace (firstrace-cc / firstrace-c++, then `firstrace record` and `firstrace analyze`) and
# with clang's ThreadSanitizer, on the same workload. Prints, per program and workload, what each
# tool reported, its run time and its slowdown against the native build. (Issue 11: "tried as a
# new user would on other people's programs".)
#
#   bench/real_programs/run.sh BUILD_DIR WORK_DIR [PROGRAM ...]
#
# BUILD_DIR is a firstrace build (bin/firstrace, bin/firstrace-cc, bin/firstrace-c++). WORK_DIR
# receives the Debian sources (`apt-get source --download-only`: needs deb-src lines and the
# network, so this is no ctest test), the three builds of each program, the workload input, the
# traces, the analysis summaries and the ThreadSanitizer logs; run again, it reuses what is
# there (delete WORK_DIR/build/PROGRAM-* to rebuild). PROGRAM: zstd xz lbzip2 pbzip2 memcached
# (default: all; memcached needs libevent-dev and python3: a server with 4 worker threads, driven
# over loopback by memcached_load.py beside this script, 8 clients, then told to shut down). Each program is built from its upstream tarball (Debian's `.orig`), at -O1 -g with
# clang (FIRSTRACE_CC=clang for the firstrace build, the same instrumentation pass as TSan's;
# set FIRSTRACE_COMPILER=gcc to build the firstrace variant with gcc instead).
#
# Columns: "races" is, for firstrace, race sites / of them in first partitions (the summary's
# "N race sites to look at: M in first partitions"), for TSan the number of "WARNING:
# ThreadSanitizer:" reports (data races and others). "time" is the program's wall time (for
# firstrace the recording; the analysis time is its own column), "slowdown" time / native
# time. "verdict" compares the two tools only: "agree" when both report nothing or both report
# something; otherwise which one reports alone. Each report must then be examined against the
# source (README "Real programs" holds the examined verdicts). "output" says whether the
# program's output matched the native build's (a tracer that changes the program's behaviour
# is a bug). Run the script itself under `nice -n 10` on a shared machine: every run of a program
# has the same priority, so the slowdowns compare. Each run has a time limit (REAL_PROGRAMS_TIMEOUT seconds, default 900) so that a
# hang is reported, not waited for; record and analyze run under a 4 GiB address-space cap.
set -u -o pipefail

usage() {
    echo "usage: $0 BUILD_DIR WORK_DIR [zstd|xz|lbzip2|pbzip2|memcached ...]" >&2
    exit 2
}
[[ $# -ge 2 ]] || usage
BUILD=$(cd "$1" && pwd) || usage
mkdir -p "$2" || usage
WORK=$(cd "$2" && pwd)
shift 2
PROGRAMS=("$@")
[[ ${#PROGRAMS[@]} -gt 0 ]] || PROGRAMS=(zstd xz lbzip2 pbzip2 memcached)

FIRSTRACE=$BUILD/bin/firstrace
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
for tool in "$FIRSTRACE" "$BUILD/bin/firstrace-cc" "$BUILD/bin/firstrace-c++"; do
    [[ -x $tool ]] || {
        echo "$0: $tool is missing: build firstrace first" >&2
        exit 2
    }
done
command -v clang >/dev/null && command -v clang++ >/dev/null || {
    echo "$0: clang and clang++ are needed (ThreadSanitizer and the native builds)" >&2
    exit 2
}
TIMEOUT=${REAL_PROGRAMS_TIMEOUT:-900}
MEMCAP=$((4 << 30))
FR_COMPILER=${FIRSTRACE_COMPILER:-clang}
OPT="-O1 -g"
JOBS=${REAL_PROGRAMS_JOBS:-2}

log() { echo "[real_programs] $*" >&2; }

# --- sources -------------------------------------------------------------------------------

# fetch PACKAGE: downloads Debian's source package (once) and extracts the upstream tarball into
# WORK/src/PACKAGE. Only the `.orig` tarball is used: Debian's patches are not needed to build
# these programs (the one build fix needed is passed as a flag, see lbzip2), and a missing
# `.debian` part on a mirror does not stop the run.
fetch() {
    local pkg=$1 dir=$WORK/src/$1
    [[ -d $dir ]] && return 0
    mkdir -p "$WORK/src/download"
    (cd "$WORK/src/download" && ls "${pkg}"_*.orig.tar.* >/dev/null 2>&1 ||
        apt-get source --download-only "$pkg" >"$WORK/src/download/$pkg.log" 2>&1)
    local orig
    orig=$(ls "$WORK/src/download/${pkg}"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1)
    [[ -n $orig ]] || {
        log "apt-get source $pkg gave no upstream tarball (deb-src lines? network?): see $WORK/src/download/$pkg.log"
        return 1
    }
    mkdir -p "$dir.tmp" && tar -xf "$orig" -C "$dir.tmp" --strip-components=1 && mv "$dir.tmp" "$dir"
}

# --- builds --------------------------------------------------------------------------------

# Each build function runs in a fresh copy of the source with CC/CXX/CFLAGS/CXXFLAGS/LDFLAGS
# set for the variant and prints the path of the built program.
build_zstd() {
    make -C programs zstd -j"$JOBS" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" >build.log 2>&1 &&
        echo "$PWD/programs/zstd"
}
build_xz() {
    ./configure --disable-shared --disable-doc --disable-nls --disable-scripts --disable-xzdec \
        --disable-lzmadec --disable-lzmainfo >configure.log 2>&1 &&
        make -j"$JOBS" >build.log 2>&1 && echo "$PWD/src/xz/xz"
}
build_lbzip2() {
    # lbzip2 2.5's gnulib predates glibc 2.28 (fseterr.c: "Please port gnulib"); Debian patches
    # it, defining _IO_ftrylockfile selects gnulib's glibc branch, which is still right.
    CFLAGS="$CFLAGS -D_IO_ftrylockfile" ./configure >configure.log 2>&1 &&
        make -j"$JOBS" >build.log 2>&1 && echo "$PWD/src/lbzip2"
}
build_pbzip2() {
    # The upstream Makefile sets CXXFLAGS = -O2, so ours replace it on the command line, with
    # the Makefile's own defines added back. pbzip2 1.1.13 predates C++11's literal suffixes
    # ("%"PRIuMAX): C++98 with GNU extensions.
    make pbzip2 CXX="$CXX" LDFLAGS="$LDFLAGS" CXXFLAGS="$CXXFLAGS -std=gnu++98 -pthread \
        -D_POSIX_PTHREAD_SEMANTICS -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64 \
        -DUSE_STACKSIZE_CUSTOMIZATION" >build.log 2>&1 && echo "$PWD/pbzip2"
}

build_memcached() {
    # extstore and the docs need more than libevent; the server alone is the program
    ./configure --disable-docs --disable-extstore >configure.log 2>&1 &&
        make -j"$JOBS" memcached >build.log 2>&1 && echo "$PWD/memcached"
}

package_of() {
    case $1 in
    zstd) echo libzstd ;;
    xz) echo xz-utils ;;
    *) echo "$1" ;;
    esac
}

# build PROGRAM VARIANT -> prints the program's path (built once per WORK_DIR)
build() {
    local prog=$1 variant=$2 dir=$WORK/build/$1-$2
    if [[ -f $dir/.built ]]; then
        cat "$dir/.built"
        return 0
    fi
    rm -rf "$dir" && mkdir -p "$WORK/build" && cp -a "$WORK/src/$(package_of "$prog")" "$dir" || return 1
    local out
    out=$(
        cd "$dir" || exit 1
        case $variant in
        native) export CC=clang CXX=clang++ CFLAGS="$OPT" CXXFLAGS="$OPT" LDFLAGS="" ;;
        tsan)
            export CC=clang CXX=clang++ CFLAGS="$OPT -fsanitize=thread" \
                CXXFLAGS="$OPT -fsanitize=thread" LDFLAGS="-fsanitize=thread"
            ;;
        firstrace)
            export CC=$BUILD/bin/firstrace-cc CXX=$BUILD/bin/firstrace-c++ CFLAGS="$OPT" \
                CXXFLAGS="$OPT" LDFLAGS="" FIRSTRACE_CC=$FR_COMPILER
            [[ $FR_COMPILER == clang ]] && export FIRSTRACE_CXX=clang++ || export FIRSTRACE_CXX=g++
            # configure's test programs run: they need not write traces
            export FIRSTRACE_DISABLE=1
            ;;
        esac
        "build_$prog"
    ) || {
        log "building $prog ($variant) failed: see $dir/*.log"
        return 1
    }
    echo "$out" >"$dir/.built"
    echo "$out"
}

# --- workloads -----------------------------------------------------------------------------

# The input: 4 MB of C headers (compressible like source code), the same bytes on every run on
# one machine. Large enough that each program splits it among 4 threads.
make_input() {
    local input=$WORK/input-4M.dat
    [[ -f $input ]] || find /usr/include -name '*.h' -type f | LC_ALL=C sort | xargs cat 2>/dev/null |
        head -c 4000000 >"$input"
    echo "$input"
}

# workloads PROGRAM: lines "NAME|ARGS" where ARGS use @IN@ (the input file) and @OUT@ (the
# output file the run writes). Decompression reads the native build's compressed output.
workloads() {
    case $1 in
    zstd)
        echo "compress -T4|-q -f -T4 -B1MiB -3 @IN@ -o @OUT@"
        echo "decompress|-q -f -d @ZIN@ -o @OUT@"
        ;;
    xz)
        echo "compress -T4|-T4 -2 --block-size=1MiB -f -k -c @IN@ >@OUT@"
        echo "decompress -T4|-T4 -d -f -c @ZIN@ >@OUT@"
        ;;
    lbzip2)
        echo "compress -n4|-n4 -9 -f -k -c @IN@ >@OUT@"
        echo "decompress -n4|-n4 -d -f -c @ZIN@ >@OUT@"
        ;;
    pbzip2)
        echo "compress -p4|-p4 -9 -f -k -c @IN@ >@OUT@"
        echo "decompress -p4|-p4 -d -f -c @ZIN@ >@OUT@"
        ;;
    memcached)
        # the server in the background (exec'd as the other programs are), the client in front;
        # the client's last command shuts the server down (-A), `wait` waits for its exit
        local port=${REAL_PROGRAMS_PORT:-22122}
        echo "serve -t4, 8 clients|-u $(id -un) -A -t 4 -p $port -U 0 -l 127.0.0.1 & python3 $SCRIPT_DIR/memcached_load.py $port 8 2000 >@OUT@; wait"
        ;;
    esac
}

seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
now() { date +%s.%N; }

# run_one PROGRAM WORKLOAD_INDEX NAME ARGS: runs the three builds, appends a table block.
run_one() {
    local prog=$1 idx=$2 name=$3 args=$4
    local dir=$WORK/runs/$prog-$idx
    rm -rf "$dir" && mkdir -p "$dir"
    local input zin
    input=$(make_input)
    zin=$WORK/runs/$prog-0/native.out # the compression's native output
    local -A time status races output
    local variant bin cmd t0 t1
    for variant in native tsan firstrace; do
        bin=$(build "$prog" "$variant") || {
            time[$variant]=-
            output[$variant]=-
            status[$variant]="build failed"
            continue
        }
        cmd=${args//@IN@/$input}
        cmd=${cmd//@ZIN@/$zin}
        cmd=${cmd//@OUT@/$dir/$variant.out}
        t0=$(now)
        case $variant in
        native)
            (cd "$dir" && timeout "$TIMEOUT" bash -c "exec '$bin' $cmd" 2>native.err)
            ;;
        tsan)
            (cd "$dir" && TSAN_OPTIONS="exitcode=0 ${TSAN_OPTIONS:-}" timeout "$TIMEOUT" \
                bash -c "exec '$bin' $cmd" 2>tsan.err)
            ;;
        firstrace)
            (cd "$dir" && timeout "$TIMEOUT" prlimit --as=$MEMCAP \
                bash -c "exec '$FIRSTRACE' record --quiet -o '$dir/trace' -- '$bin' $cmd" \
                2>firstrace.err)
            ;;
        esac
        local rc=$?
        t1=$(now)
        time[$variant]=$(seconds_between "$t0" "$t1")
        if [[ $rc -eq 124 ]]; then
            status[$variant]="timeout ${TIMEOUT}s"
        elif [[ $rc -ne 0 ]]; then
            status[$variant]="exit $rc"
        else
            status[$variant]=ok
        fi
        if [[ $variant != native ]]; then
            if cmp -s "$dir/$variant.out" "$dir/native.out"; then output[$variant]=same; else output[$variant]=DIFFERS; fi
        else
            output[$variant]=-
        fi
    done
    # TSan: every report, whatever its kind
    races[tsan]=$(grep -c '^WARNING: ThreadSanitizer:' "$dir/tsan.err" 2>/dev/null)
    local tsan_data
    tsan_data=$(grep -c '^WARNING: ThreadSanitizer: data race' "$dir/tsan.err" 2>/dev/null)
    # firstrace: analyze the trace
    local analysis_time=- sites=0 first=0
    if [[ -d $dir/trace ]]; then
        t0=$(now)
        timeout "$TIMEOUT" prlimit --as=$MEMCAP "$FIRSTRACE" analyze "$dir/trace" \
            --db "$dir/trace.db" >"$dir/analysis.txt" 2>&1
        local arc=$?
        t1=$(now)
        analysis_time=$(seconds_between "$t0" "$t1")
        if [[ $arc -ne 0 ]]; then
            status[firstrace]="analyze exit $arc"
            sites=-
            first=-
        elif grep -q '^No apparent data races' "$dir/analysis.txt"; then
            sites=0
            first=0
        else
            sites=$(sed -n 's/^\([0-9]*\) race sites\{0,1\} to look at.*/\1/p' "$dir/analysis.txt" | head -1)
            first=$(sed -n 's/.*: \([0-9]*\) in first partitions.*/\1/p' "$dir/analysis.txt" | head -1)
        fi
    fi
    races[firstrace]="${sites:-?}/${first:-?}"
    races[native]=-

    local verdict
    local fr_any=$([[ $sites != 0 ]] && echo 1 || echo 0) ts_any=$([[ ${races[tsan]:-0} != 0 ]] && echo 1 || echo 0)
    if [[ ${status[firstrace]} != ok || ${status[tsan]} != ok ]]; then
        verdict="run failed"
    elif [[ $fr_any == 0 && $ts_any == 0 ]]; then
        verdict="agree (no race)"
    elif [[ $fr_any == 1 && $ts_any == 1 ]]; then
        verdict="agree (both report: examine)"
    elif [[ $fr_any == 1 ]]; then
        verdict="firstrace alone: examine"
    else
        verdict="TSan alone: examine"
    fi
    {
        printf '\n%s %s (%s)\n' "$prog" "$name" "$dir"
        printf '  %-10s %-12s %9s %9s %11s %-8s %s\n' tool races "time s" slowdown "analysis s" output status
        for variant in native firstrace tsan; do
            local slow=-
            [[ ${time[native]} != - && ${time[$variant]} != - ]] &&
                slow=$(awk -v a="${time[$variant]}" -v n="${time[native]}" 'BEGIN { printf "%.1fx", a / (n > 0 ? n : 0.01) }')
            local r=${races[$variant]} at=-
            [[ $variant == tsan ]] && r="$r ($tsan_data race)"
            [[ $variant == firstrace ]] && at=$analysis_time
            printf '  %-10s %-12s %9s %9s %11s %-8s %s\n' "$variant" "$r" "${time[$variant]}" "$slow" "$at" \
                "${output[$variant]}" "${status[$variant]}"
        done
        printf '  verdict: %s\n' "$verdict"
    } | tee -a "$WORK/results.txt"
}

: >"$WORK/results.txt"
for prog in "${PROGRAMS[@]}"; do
    case $prog in
    zstd | xz | lbzip2 | pbzip2 | memcached) ;;
    *)
        log "unknown program $prog"
        exit 2
        ;;
    esac
    fetch "$(package_of "$prog")" || continue
    idx=0
    while IFS='|' read -r name args; do
        log "$prog: $name"
        run_one "$prog" "$idx" "$name" "$args"
        idx=$((idx + 1))
    done < <(workloads "$prog")
done
echo "results: $WORK/results.txt" >&2
