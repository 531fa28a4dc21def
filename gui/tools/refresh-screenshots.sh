#!/bin/sh
# Refreshes the README screenshots of firstrace-gui (docs/firstrace-gui.png: the C sample
# samples/workq-racy.c; docs/firstrace-gui-cpp.png: the C++ thread pool
# samples/thread-pool-racy.cpp): builds the tools, compiles each sample with the firstrace
# wrappers, records it, analyses it into a database and renders the window in a real X server
# (Xvfb, when xvfb-run is installed; else offscreen) with the race the browser selects first.
#   gui/tools/refresh-screenshots.sh [BUILD_DIR]      (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target firstrace firstrace-gui firstrace_tracer
bin=$build/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shoot() { # NAME COMPILER SOURCE PNG [FLAGS...]
    name=$1 compiler=$2 source=$3 png=$4
    shift 4
    "$bin/$compiler" -g -O0 -pthread "$@" "$source" -o "$work/$name"
    "$bin/firstrace" record -q -o "$work/$name.trace" -- "$work/$name"
    (cd "$root" && "$bin/firstrace" analyze -q "$work/$name.trace" -o "$work/$name.db")
    if command -v xvfb-run >/dev/null; then
        QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1200x24" \
            "$bin/firstrace-gui" --screenshot "$png" --size 1600x1000 "$work/$name.db"
    else
        QT_QPA_PLATFORM=offscreen \
            "$bin/firstrace-gui" --screenshot "$png" --size 1600x1000 "$work/$name.db"
    fi
    echo "wrote $png"
}

shoot workq firstrace-cc "$root/samples/workq-racy.c" "$root/docs/firstrace-gui.png"
shoot pool firstrace-c++ "$root/samples/thread-pool-racy.cpp" "$root/docs/firstrace-gui-cpp.png" -std=c++17
