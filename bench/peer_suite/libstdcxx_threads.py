#!/usr/bin/env python3
"""False reports on libstdc++'s own thread tests: every run test of the 30_threads and
29_atomics directories of libstdc++'s testsuite that uses threads (race-free by construction:
they check the library's behaviour with VERIFY), built with firstrace-c++ over g++ and over
clang++ and with g++ -fsanitize=thread, run once each. Any race either tool reports is a false
report (or a bug of the library's test).

    apt-get source --download-only gcc-12 && tar xzf gcc-12_12.2.0.orig.tar.gz
    tar xJf gcc-12-12.2.0/gcc-12.2.0-dfsg.tar.xz --wildcards \\
      '*/libstdc++-v3/testsuite/30_threads/*' '*/libstdc++-v3/testsuite/29_atomics/*' \\
      '*/libstdc++-v3/testsuite/util/*'
    bench/peer_suite/libstdcxx_threads.py gcc-12.2.0/libstdc++-v3/testsuite [--build build]
        [-j 2] [--only REGEX] [--keep DIR]

Built as -std=gnu++20 -pthread -O1 -g with the testsuite's util/ on the include path (the
tests' own dg-options name gnu++2a or -pthread, which this covers; gnu++98 tests are left out).
A test whose build fails with a tool's compiler (clang 14 rejects some of libstdc++ 12's C++20
code; one test needs the testsuite's own library) is counted as a build failure of that
column, not as a report.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import tempfile


def sh(cmd, cwd, timeout):
    try:
        r = subprocess.run(cmd, shell=True, cwd=cwd, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, start_new_session=True)
        return r.returncode, r.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def tests_of(testsuite, only):
    found = []
    for d in ("30_threads", "29_atomics"):
        for root, _, files in sorted(os.walk(os.path.join(testsuite, d))):
            for f in sorted(files):
                path = os.path.join(root, f)
                if not f.endswith(".cc") or (only and not re.search(only, path)):
                    continue
                text = open(path, errors="replace").read()
                if "dg-do run" in text and "thread" in text and \
                        not re.search(r"dg-options \"-std=(gnu|c)\+\+98", text):
                    found.append(path)
    return found


def run_one(path, testsuite, tools, work):
    name = os.path.relpath(path, testsuite)[:-3]
    d = os.path.join(work, name.replace("/", "_"))
    os.makedirs(d, exist_ok=True)
    flags = "-std=gnu++20 -pthread -g -O1 -w -I%s" % os.path.join(testsuite, "util")
    compilers = {"firstrace (g++)": "FIRSTRACE_CXX=g++ %s/firstrace-c++" % tools,
                 "firstrace (clang++)": "FIRSTRACE_CXX=clang++ %s/firstrace-c++" % tools,
                 "g++ TSan": "g++ -fsanitize=thread"}
    result = {}
    for i, (tool, cxx) in enumerate(compilers.items()):
        exe = os.path.join(d, "t%d" % i)
        code, _ = sh("%s %s %s -o %s -latomic > %s.build 2>&1" % (cxx, flags, path, exe, exe), d, 300)
        if code != 0:
            result[tool] = "build failure"
            continue
        if tool == "g++ TSan":
            code, _ = sh("TSAN_OPTIONS=exitcode=0 timeout 120 %s > %s.out 2>&1" % (exe, exe), d, 130)
            out = open(exe + ".out", errors="replace").read()
            result[tool] = "race" if "ThreadSanitizer: data race" in out else \
                ("no race" if code == 0 else "run failure")
            continue
        trace = exe + ".trace"
        shutil.rmtree(trace, ignore_errors=True)
        rc, _ = sh("timeout 120 %s/firstrace record -q -o %s -- %s > %s.out 2>&1" % (tools, trace, exe, exe), d, 130)
        sh("prlimit --as=%d %s/firstrace analyze -q %s > %s.an 2>&1" % (4 << 30, tools, trace, exe), d, 300)
        counts = re.findall(r"(\d+) apparent races", open(exe + ".an", errors="replace").read())
        if not counts:
            result[tool] = "run failure"
        elif any(int(n) for n in counts):
            result[tool] = "race"
        else:
            result[tool] = "no race" if rc == 0 else "run failure"
    return name, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("testsuite")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only")
    ap.add_argument("--keep")
    a = ap.parse_args()
    testsuite = os.path.abspath(a.testsuite)
    tools = os.path.abspath(os.path.join(a.build, "bin"))
    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="libstdcxx-threads.")
    tests = tests_of(testsuite, a.only)
    totals = {}
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for name, result in pool.map(lambda p: run_one(p, testsuite, tools, work), tests):
            print("%-62s %s" % (name, "  ".join("%s: %s" % kv for kv in result.items())), flush=True)
            for tool, verdict in result.items():
                totals.setdefault(tool, {}).setdefault(verdict, 0)
                totals[tool][verdict] += 1
    print("\n%d tests (race-free by construction)" % len(tests))
    for tool, verdicts in totals.items():
        print("%-20s %s" % (tool, ", ".join("%s %d" % kv for kv in sorted(verdicts.items()))))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
