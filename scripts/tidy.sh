#!/usr/bin/env bash
# clang-tidy (the check set of .clang-tidy) over every component's own sources: the translation
# units of the build's compile_commands.json under tracer/, analyzer/, db-schema/, gui/, tests/
# and bench/, and the headers of those folders they include (generated files, Qt's moc output and
# third-party headers excluded). Prints the findings; exits non-zero when there is any.
# The sources are parsed as at -O0 (__NO_INLINE__): with glibc's extern-inline stdio
# definitions visible, clang rejects the tracer's own putchar/vprintf interceptors.
#
#   scripts/tidy.sh [BUILD_DIR] [JOBS] [REGEX]   (default: build, 2 jobs, every file; REGEX
#                                                 restricts the check to matching paths)
#
# The build directory must have been configured with CMAKE_EXPORT_COMPILE_COMMANDS (the presets
# do) and built once (the GUI's moc headers are generated files its sources include).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
jobs=${2:-2}
only=${3:-.}
tidy=${CLANG_TIDY:-$(command -v clang-tidy-14 || command -v clang-tidy)}
[[ -f $build/compile_commands.json ]] || {
    echo "tidy.sh: $build/compile_commands.json missing: configure with a preset first" >&2
    exit 2
}
components='(tracer|analyzer|db-schema|gui|tests|bench)'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The compilation database with the options clang does not know removed (the tracer's gcc-only
# -fno-tree-loop-distribute-patterns), and the translation units to check.
mapfile -t files < <(python3 - "$build/compile_commands.json" "$work" "$root" "$components" "$only" <<'EOF_PY'
import json, re, sys
commands, work, root, components, only = sys.argv[1:6]
gcc_only = {'-fno-tree-loop-distribute-patterns'}
own = re.compile('^' + re.escape(root) + '/' + components + '/')
entries = json.load(open(commands))
for e in entries:
    if 'arguments' in e:
        e['arguments'] = [a for a in e['arguments'] if a not in gcc_only]
    else:
        e['command'] = ' '.join(a for a in e['command'].split(' ') if a not in gcc_only)
json.dump(entries, open(work + '/compile_commands.json', 'w'))
print('\n'.join(sorted({e['file'] for e in entries if own.match(e['file']) and re.search(only, e['file'])})))
EOF_PY
)
[[ ${#files[@]} -gt 0 ]] || {
    echo "tidy.sh: no source of $root in $build/compile_commands.json" >&2
    exit 2
}
log=$work/findings.log
status=0
printf '%s\0' "${files[@]}" |
    xargs -0 -n 1 -P "$jobs" "$tidy" -p "$work" --quiet --extra-arg=-D__NO_INLINE__ \
        --header-filter="^$root/$components/" --warnings-as-errors='*' >"$log" 2>&1 ||
    status=$?
# clang-tidy's "N warnings generated" lines are about headers it filtered out: not findings.
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|^Use -system-headers' "$log" || true
if [[ $status -ne 0 ]]; then
    echo "tidy.sh: clang-tidy findings in ${#files[@]} files checked (see above)" >&2
    exit 1
fi
echo "tidy.sh: ${#files[@]} files clean"
