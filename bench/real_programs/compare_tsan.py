#!/usr/bin/env python3
"""Compare firstrace's race sites with ThreadSanitizer's warnings, as pairs of source lines.

usage: compare_tsan.py FIRSTRACE_JSON [TSAN_LOG...]

FIRSTRACE_JSON is `firstrace analyze TRACE --format json -o FILE` (one run, or the "runs" of a
trace with fork/exec children); each TSAN_LOG is ThreadSanitizer's output (stderr, or the files
of TSAN_OPTIONS=log_path=...). A pair is the two accesses' innermost program lines, file base
name and line, unordered. TSan frames inside its own runtime (an intercepted memcpy, free ...)
are skipped to the caller, as firstrace names the caller of an intercepted call; a TSan frame
without a line number (a function inlined at -O1) is skipped to the next frame with one, so such
a warning can name a caller's line where firstrace names the inlined one: check those by hand.
Prints one line per pair (FR: firstrace has it, with its count and statuses; TS: TSan, with the
number of warnings), then the totals.
"""
import json
import os
import re
import sys


def key(a, b):
    return tuple(sorted([a, b]))


def firstrace_pairs(path):
    doc = json.load(open(path))
    runs = doc['runs'] if 'runs' in doc else [doc]
    pairs = {}
    for run in runs:
        for race in run['races']:
            sites = race['sites']
            for pair in race.get('site_pairs') or []:
                sa, sb = sites['a'][pair['a']], sites['b'][pair['b']]
                k = key(f"{os.path.basename(sa['file'])}:{sa['line']}",
                        f"{os.path.basename(sb['file'])}:{sb['line']}")
                entry = pairs.setdefault(k, [0, set()])
                entry[0] += 1
                entry[1].add(race['status'])
    return pairs


FRAME = re.compile(r'^\s+#\d+ \S+ (\S+?):(\d+)', re.M)


def tsan_pairs(paths):
    pairs = {}
    for path in paths:
        if not os.path.exists(path):  # an unexpanded log_path glob: TSan wrote nothing
            continue
        text = open(path, errors='replace').read()
        for warning in text.split('WARNING: ThreadSanitizer: data race')[1:]:
            # the first two blocks are the current and the previous access
            blocks = re.split(r'\n\s*\n', warning)[:2]
            lines = []
            for block in blocks:
                for m in FRAME.finditer(block):
                    if not re.search(r'(tsan_|sanitizer_)', m.group(1)):
                        lines.append(f"{os.path.basename(m.group(1))}:{m.group(2)}")
                        break
            if len(lines) == 2:
                k = key(*lines)
                pairs[k] = pairs.get(k, 0) + 1
    return pairs


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    fr = firstrace_pairs(sys.argv[1])
    ts = tsan_pairs(sys.argv[2:])
    for k in sorted(set(fr) | set(ts)):
        f, t = fr.get(k), ts.get(k, 0)
        statuses = ','.join(sorted(f[1])) if f else ''
        print(f"{'FR' if f else '  '} {'TS' if t else '  '}  {k[0]:28s} {k[1]:28s} "
              f"firstrace={f[0] if f else 0} {statuses} tsan={t}")
    print(f"firstrace pairs {len(fr)}, TSan pairs {len(ts)}, both {len(set(fr) & set(ts))}, "
          f"TSan only {len(set(ts) - set(fr))}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
