#!/usr/bin/env python3
"""Precision and recall of firstrace and of clang ThreadSanitizer on another project's test suite
for race detectors. Driven by external.sh (its header says how to get the suites).

These suite layouts are understood:

* LLVM compiler-rt's ThreadSanitizer lit tests (a directory with lit.cfg.py naming
  ThreadSanitizer, i.e. compiler-rt/test/tsan). Each test's `RUN:` lines are executed in order
  with lit's substitutions; every `%run` step is one *case*. Its expected verdict is the test's
  own: racy when a positive FileCheck directive of the prefixes that step checks (`CHECK:`,
  `CHECK-NEXT:`, ... not `-NOT:`) expects "data race" (TSan's "ThreadSanitizer: data race") or
  "ThreadSanitizer: heap-use-after-free" (TSan's name for an access racing with a free), or
  when the step runs under `%deflake` (rerun until TSan reports) and the test names no other
  kind of TSan report; race-free otherwise. REQUIRES/UNSUPPORTED/XFAIL are evaluated as lit
  does on x86-64 Linux; a test calling a TSan interface function that clang's
  <sanitizer/*.h> does not declare (a newer TSan than the comparison compiler) is out of
  scope.
* Valgrind's helgrind and drd regression tests (a Valgrind source tree, or its helgrind/ or
  drd/ directory). Each `*.vgtest` naming a C/C++ program of that directory is one case, racy
  when its `*.stderr.exp` shows a race ("Possible data race" for helgrind, "Conflicting load"
  / "Conflicting store" / "Conflicting wait call" for drd). Of several `*.stderr.exp*` alternatives only those for amd64
  Linux count (not -freebsd, -32bit, -x86, ...); when those disagree the suite accepts either
  outcome and the case is out of scope. Where drd's stderr filter keeps only the error count,
  the verdict is that of the test running the same program with the same arguments whose
  expected output shows the errors (helgrind's copy). A test whose `prereq:` fails here is out
  of scope, as Valgrind's harness skips it (`test -e PROG`: whether the configured Makefile
  builds PROG). Programs are built as Valgrind's Makefiles build them: the tree's include
  directories and config.h, -DVGO_linux=1 and the other platform defines, the compiler's
  default C dialect.
* GCC's ThreadSanitizer tests (gcc/testsuite: c-c++-common/tsan, gcc.dg/tsan, g++.dg/tsan;
  the tree, gcc/testsuite or one tsan directory). As GCC's harness runs them, each test that
  runs a program is a case per language (the c-c++-common ones as C and as C++) and torture
  option (-O0, -O2), built with the test's dg-options / dg-additional-options /
  dg-additional-sources and `-fsanitize=thread -g`, run with its dg-set-target-env-var. Racy
  when a `dg-output` expects "ThreadSanitizer: data race" (also "data race on vptr"),
  race-free when the test expects the program to run without such a report (no dg-output of
  one; a dg-prune-output of it only tidies the log of a failure: the run must still exit 0,
  which a TSan report prevents). Out of scope, with the reason: `dg-do compile` tests (gcc's
  instrumentation pass, no program runs), tests expecting only another report (thread leak)
  or TSan's heap-use-after-free (as for compiler-rt), tests of TSan's flags
  (`__tsan_default_options` or TSAN_OPTIONS setting flags other than halt_on_error and those
  firstrace applies, MODELLED_TSAN_OPTIONS) and of gcc's
  instrumentation parameters (`--param=tsan-*`), programs without threads. firstrace builds
  them with gcc/g++ (the suite's compiler) through firstrace-cc/firstrace-c++; TSan is
  clang's, on the same flags.

* Google's racecheck unit tests, the ThreadSanitizer v1 / Helgrind feature tests Valgrind
  ships as drd/tests/tsan_unittest.cpp (SUITE_DIR = that file). Each test `testNN` whose comment
  labels it (`// testNN: TP.`, FN, TN, FP: the authors' ground truth, TP/FN racy, TN/FP
  race-free) is a case, run as `tsan_unittest NN` from one build per tool
  (-DTHREAD_WRAPPERS="tsan_thread_wrappers_pthread.h", as drd's Makefile builds it). As the
  suite's own default run does, tests flagged NEEDS_ANNOTATIONS (their synchronization is a
  dynamic annotation, a Valgrind client request in this build: a no-op outside Valgrind) or
  EXCLUDE_FROM_ALL are out of scope, and so are the stability and performance tests (no label).
* LLVM OpenMP's Archer lit tests (a directory whose lit.cfg names libarcher, i.e.
  openmp/tools/archer/tests). Each test file is one case (its second RUN line, where there is
  one, differs only in Archer's own `ignore_serial` option), racy when a positive CHECK
  directive expects "ThreadSanitizer: data race". Built as the suite builds them (-O1, -g,
  -fopenmp, the suite's directory on the include path, the RUN line's extra flags and
  environment); the comparison tool is clang TSan with Archer loaded
  (OMP_TOOL_LIBRARIES=libarcher.so, ignore_noninstrumented_modules=1), run once, not under the
  suite's deflake.bash (which reruns a racy test up to 10 times until TSan sees the race).

Except for GCC's tests, each case is built with firstrace-cc/firstrace-c++ (clang, -g) and with clang -fsanitize=thread,
run once by each tool. A tool reports a race when `firstrace analyze` finds an apparent race in
the trace (or in one of its fork-<pid> / exec-<pid> traces of child and exec'd processes) / when TSan prints "WARNING:
ThreadSanitizer: data race" or "heap-use-after-free". A case that does not build or whose run
gives no answer (timeout, no trace, analysis error) counts as a miss for a racy case and as a
false report for a race-free one, as in evaluate.sh; both are also counted on their own.
Out-of-scope tests are listed with the reason and not counted.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

RUN_TIMEOUT = 60
ANALYZE_TIMEOUT = 120
BUILD_TIMEOUT = 180
# The analysis runs under a 4 GiB address-space cap (a shared machine); TSan's runs cannot (its
# shadow memory reserves terabytes of address space).
ANALYZE_MEMORY = 4 << 30

# TSAN_OPTIONS that do not change whether a test's program has a data race report: timing of
# the exit, what is printed with a report, TSan's own memory and symbolizer management, reports
# of other kinds (deadlocks, destroyed locked mutexes), stopping after the first report, what
# happens to a multithreaded fork's child or a failed allocation. Not among them: check_printf,
# report_atomic_races, ignore_interceptors_accesses (they decide whether some races are
# reported), io_sync, history_size, and flush_memory_ms/memory_limit_mb: TSan's flushes forget
# the accesses before them, so a race across a flush is missed and a test may label a racy
# program race-free (flush_memory.cpp says so in its comments).
HARMLESS_TSAN_OPTIONS = {
    "atexit_sleep_ms", "print_suppressions", "verbosity", "flush_symbolizer_ms",
    "force_background_thread", "handle_sigbus", "external_symbolizer_path",
    "stack_trace_format", "second_deadlock_stack", "print_full_thread_history", "halt_on_error",
    "suppress_equal_stacks", "detect_deadlocks", "report_destroy_locked", "die_after_fork",
    "allocator_may_return_null", "exitcode", "symbolize",
}
# TSan run-time settings firstrace applies (the runtime keeps them in the trace, analyze applies
# them: README "What the runtime understands"): tests of these are in scope, and both tools run
# with the test's TSAN_OPTIONS (firstrace ignores the others).
MODELLED_TSAN_OPTIONS = {"suppressions", "report_bugs", "ignore_noninstrumented_modules"}
# A program's __tsan_default_options() returning only such flags is in scope too.
DEFAULT_OPTIONS = re.compile(r"__tsan_default_options\s*\([^)]*\)\s*\{\s*return\s*\"([^\"]*)\"")


def default_options_scope(text):
    """Why a test's __tsan_default_options() puts it out of scope (flags firstrace does not
    model), or None (none defined, or only modelled and harmless flags)."""
    if not re.search(r"__tsan_default_options", text):
        return None
    m = DEFAULT_OPTIONS.search(text)
    if not m:
        return "tests TSan flags (__tsan_default_options not a string literal)"
    names = {o.split("=")[0] for o in re.split(r"[\s,:]+", m.group(1)) if o}
    other = sorted(names - HARMLESS_TSAN_OPTIONS - MODELLED_TSAN_OPTIONS)
    return "tests TSan flag " + ",".join(other) + " (__tsan_default_options)" if other else None


class Case:
    def __init__(self, name, expected, steps=None, skip=None):
        self.name = name
        self.expected = expected  # 1 racy, 0 race-free
        self.steps = steps or []  # shell steps before the run (compiles, echo, mkdir)
        self.skip = skip
        self.count_only = False  # Valgrind: the expected output is only a non-zero error count
        self.run = None  # (argv after the program path, tsan option string)
        self.result = {}


# ---------------------------------------------------------------------------------------------
# compiler-rt/test/tsan (lit)
# ---------------------------------------------------------------------------------------------

def lit_run_lines(text):
    """The RUN: commands of a lit test, continuation lines joined, as lit does."""
    commands, current = [], ""
    for line in text.splitlines():
        m = re.search(r"\bRUN:(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        current += part
        commands.append(current.strip())
        current = ""
    if current.strip():
        commands.append(current.strip())
    return commands


# The kinds of ThreadSanitizer report other than a data race (a test expecting one of them
# counts its "reported N warnings" as those, not as races).
TSAN_OTHER_REPORTS = re.compile(r"ThreadSanitizer: (lock-order-inversion|thread leak|"
                                r"signal-unsafe|signal handler spoils|destroy of a locked|"
                                r"unlock of an unlocked|double lock|read lock of a write|"
                                r"heap-use-after-free|use of an invalid mutex|"
                                r"called a non-async|race on )")


# Any TSan report named in a test other than a race or the final count (force_background_thread's
# "Running under ThreadSanitizer" is no report).
TSAN_ANY_OTHER_REPORT = re.compile(r"ThreadSanitizer: (?!data race|reported )\w")


def lit_expects_race(text, prefixes):
    other_reports = TSAN_OTHER_REPORTS.search(text) is not None
    for prefix in prefixes:
        pattern = re.compile(r"\b" + re.escape(prefix) + r"(-NEXT|-SAME|-DAG)?:(.*)$")
        for line in text.splitlines():
            m = pattern.search(line)
            if not m:
                continue
            # "WARNING: ThreadSanitizer: data race", or only "data race" (malloc_stack)
            if "data race" in m.group(2):
                return 1
            # suppress_same_address/stacks check only the count at exit ("reported 1 warnings"):
            # with no other kind of report expected anywhere in the test, those are races
            if re.search(r"ThreadSanitizer: reported [1-9]", m.group(2)) and not other_reports:
                return 1
            # TSan reports every access to freed memory as heap-use-after-free, also when the
            # free is ordered before it (free_race.c: both under one mutex) or in one thread:
            # a memory error, a race only sometimes; the test does not say which.
            if "ThreadSanitizer: heap-use-after-free" in m.group(2):
                return "TSan's use-after-free report (a memory error; not always a race)"
    return 0


# What lit knows about this machine when it evaluates a test's REQUIRES/UNSUPPORTED/XFAIL:
# compiler-rt's lit.common.cfg.py adds the host OS, `<arch>-target-arch`, `stable-runtime` (not
# on the few targets where TSan's runtime is unstable), `compiler-rt-optimized` (a release build
# of the runtime, as Debian's) and `glibc-2.N` for each N it asks about up to the C library's
# version; `target=REGEX` matches the target triple.
LIT_TRIPLE = "x86_64-unknown-linux-gnu"


def lit_features():
    features = {"linux", "x86_64-target-arch", "stable-runtime", "compiler-rt-optimized", "glibc"}
    m = re.match(r"(\d+)\.(\d+)", os.confstr("CS_GNU_LIBC_VERSION").split()[-1]
                 if hasattr(os, "confstr") else "")
    if m and m.group(1) == "2":
        features.update("glibc-2.%d" % n for n in range(0, int(m.group(2)) + 1))
    return features


def lit_condition_holds(expr, features, triple_substrings):
    """One boolean expression of a REQUIRES/UNSUPPORTED/XFAIL line as lit evaluates it: `&&`,
    `||`, `!`, parentheses, features, `target=REGEX` ({{...}} parts are regular expressions,
    the rest literal, the whole matching the triple), `*` (always). Older lit (LLVM <= 15) also
    took a bare word of UNSUPPORTED/XFAIL as true when it is part of the target triple
    (`powerpc64-unknown-linux-gnu`), which triple_substrings asks for."""
    tokens = re.findall(r"\s*(&&|\|\||!|\(|\)|target=(?:\{\{.*?\}\}|[^\s&|()])+|[^\s&|()!]+)", expr)

    def term(word):
        if word == "*":
            return True
        if word.startswith("target="):
            pattern = "".join(part if i % 2 else re.escape(part)
                              for i, part in enumerate(re.split(r"\{\{(.*?)\}\}", word[7:])))
            return re.fullmatch(pattern, LIT_TRIPLE) is not None
        return word in features or (triple_substrings and word in LIT_TRIPLE)

    pos = 0

    def parse_binary(op, operand):  # operand (op operand)*, left to right
        nonlocal pos
        value = operand()
        while pos < len(tokens) and tokens[pos] == op:
            pos += 1
            right = operand()
            value = (value or right) if op == "||" else (value and right)
        return value

    def parse_or():
        return parse_binary("||", parse_and)

    def parse_and():
        return parse_binary("&&", parse_not)

    def parse_not():
        nonlocal pos
        if tokens[pos] == "!":
            pos += 1
            return not parse_not()
        if tokens[pos] == "(":
            pos += 1
            value = parse_or()
            pos += 1  # ")"
            return value
        pos += 1
        return term(tokens[pos - 1])

    return parse_or() if tokens else False


def sanitizer_interface_declared(suite_dir, cache={}):
    """The __tsan_*/__sanitizer_* names the comparison compiler's <sanitizer/*.h> headers and the
    suite's own headers declare."""
    if suite_dir not in cache:
        res = subprocess.run(["clang", "-print-resource-dir"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout.strip()
        headers = glob.glob(os.path.join(res, "include", "sanitizer", "*.h")) + \
            glob.glob(os.path.join(suite_dir, "**", "*.h"), recursive=True)
        cache[suite_dir] = set(re.findall(r"\b(__(?:tsan|sanitizer)_\w+)\b", "".join(
            open(h, errors="replace").read() for h in headers)))
    return cache[suite_dir]


def lit_newer_interface(text, suite_dir):
    """The TSan interface functions a test calls that neither the comparison compiler's headers
    nor the suite's headers nor the test itself declare: an interface newer than the compiler
    (LLVM 18's __tsan_check_no_mutexes_held with clang 14), which neither tool can build."""
    called = set(re.findall(r"\b(__(?:tsan|sanitizer)_\w+)\s*\(", text))
    own = set(re.findall(r"(?:\b(?:void|int|bool|char|long|unsigned|uptr|size_t)\s*|\*\s*)"
                         r"(__(?:tsan|sanitizer)_\w+)\s*\(", text))
    return sorted(called - own - sanitizer_interface_declared(suite_dir))


def lit_scope(path, text):
    """Why a whole lit test is out of scope, or None."""
    base = os.path.basename(path)
    rel = path
    if base.startswith("java_") or '"java.h"' in text:
        return "Java VM interface"
    if "/Darwin/" in rel or "/libdispatch/" in rel:
        return "Darwin-only / libdispatch"
    features = lit_features()
    for m in re.finditer(r"\b(REQUIRES|UNSUPPORTED|XFAIL):(.*)$", text, re.M):
        kind, what = m.group(1), m.group(2).strip()
        conditions = [c for c in what.split(",") if c.strip()]
        if kind == "REQUIRES" and not all(lit_condition_holds(c, features, False) for c in conditions):
            return "REQUIRES: " + what
        if kind == "UNSUPPORTED" and any(lit_condition_holds(c, features, True) for c in conditions):
            return "UNSUPPORTED: " + what
        if kind == "XFAIL" and any(lit_condition_holds(c, features, True) for c in conditions):
            return "XFAIL: %s (fails in the suite itself)" % what
    if re.search(r"__tsan_(get_report|locate_address|get_alloc_stack|on_report)|"
                 r"__sanitizer_set_report", text):
        return "tests TSan's report/debugging interface"
    # TSan stops the program when a called_from_lib suppression matches several libraries or a
    # matched library is unloaded (sanitizer_libignore.cpp): tests of that fatal error
    if re.search(r"matched against called_from_lib|called_from_lib suppression '.*' is matched",
                 text):
        return "tests TSan's fatal error for a called_from_lib suppression (libignore)"
    return default_options_scope(text)


def lit_scope_of_compiler(text, suite_dir):
    """Why a lit test is out of scope for the compiler both tools build with, or None."""
    newer = lit_newer_interface(text, suite_dir)
    if newer:
        return "TSan interface newer than clang's <sanitizer/*.h> (neither tool builds it): " + \
            ", ".join(newer)
    return None


TSAN_FLAG_OPTIONS = re.compile(r"-fsanitize-ignorelist|-fsanitize-blacklist|-fno-sanitize-thread-|"
                               r"-tsan-instrument|-fsanitize-recover")


def lit_cases(path, suite_dir):
    text = open(path, errors="replace").read()
    name = os.path.relpath(path, suite_dir)
    skip = lit_scope(path, text) or lit_scope_of_compiler(text, suite_dir)
    if skip:
        return [Case(name, 0, skip=skip)]
    cases, steps = [], []
    last_compile_flags = ""
    commands = []
    for cmd in lit_run_lines(text):
        commands.extend(c.strip() for c in re.split(r"&&", cmd) if c.strip())
    index = 0
    for cmd in commands:
        if "%clang" in cmd:
            # a later compile of the same output replaces the earlier one (each case builds
            # only what its run uses)
            out = re.search(r"-o\s+(\S+)", cmd)
            if out:
                steps = [s for s in steps if not (s[0] == "compile" and
                                                  re.search(r"-o\s+" + re.escape(out.group(1)) + r"(\s|$)", s[1]))]
            steps.append(("compile", cmd))
            if re.search(r"-o\s+%t(\s|$)", cmd):
                last_compile_flags = cmd
            continue
        if "%run" not in cmd:
            if cmd.startswith(("rm ", "mkdir ", "echo ", "env ", "cp ", "%python ")) and "%run" not in cmd:
                steps.append(("shell", cmd))
                continue
            steps.append(("other", cmd))
            continue
        index += 1
        run_part, _, check_part = cmd.partition("|")
        prefixes = re.findall(r"-check-prefix(?:es)?[= ]+([\w,-]+)", check_part)
        prefixes = [p for group in prefixes for p in group.split(",")]
        prefixes = [p.replace("%os", "Linux") for p in prefixes] or ["CHECK"]
        expected = lit_expects_race(text, prefixes)
        # %deflake reruns the program until it fails, i.e. until TSan reports something: a test
        # run under it expects a report, a race when the test names no other kind of report
        # (load_shared_lib checks only the function names of its race reports)
        if expected == 0 and "%deflake" in run_part and not TSAN_ANY_OTHER_REPORT.search(text):
            expected = 1
        case = Case("%s#%d" % (name, index), expected if isinstance(expected, int) else 0,
                    steps=list(steps))
        if not isinstance(expected, int):
            case.skip = expected
        # each a shell word (suppressions='%s.supp':print_suppressions=1): its quotes removed
        opts = [shlex.split(o)[0] for o in re.findall(r"%env_tsan_opts=(\S+)", run_part)]
        names = {o.split("=")[0] for opt in opts for o in opt.split(":") if o}
        flag_names = sorted(names - HARMLESS_TSAN_OPTIONS - MODELLED_TSAN_OPTIONS)
        if case.skip:
            pass
        elif flag_names:
            case.skip = "tests TSan flag " + ",".join(flag_names)
        elif TSAN_FLAG_OPTIONS.search(last_compile_flags):
            case.skip = "tests TSan instrumentation flag"
        elif "%t" not in run_part.split("%run", 1)[1].split()[0:1]:
            case.skip = "runs something other than the test program"
        # `env NAME=VALUE ... %run` (LD_LIBRARY_PATH=%t-dir for a library the test built)
        case.run_env = re.findall(r"\b([A-Z_][A-Z0-9_]*)=(\S+)", run_part.split("%run", 1)[0]
                                  .replace("%env_tsan_opts", " "))
        args = run_part.split("%run", 1)[1].split()[1:]
        args = [a for a in args if not a.startswith("2>") and not a.startswith(">")]
        case.run = (args, ":".join(opts))
        cases.append(case)
    if not cases:
        return [Case(name, 0, skip="builds only, never runs the program")]
    return cases


def lit_substitute(cmd, tool, t, src, suite_dir, tools):
    inc = os.path.dirname(suite_dir.rstrip("/"))
    if tool == "tsan":
        cc = "clang -fsanitize=thread"
        cxx = "clang++ -fsanitize=thread -std=c++11"
    else:
        cc = "env FIRSTRACE_CC=%s %s/firstrace-cc" % (OTHER_SUITES_FIRSTRACE_COMPILER, tools)
        cxx = "env FIRSTRACE_CXX=%s %s/firstrace-c++ -std=c++11" % (
            COMPILER_CXX[OTHER_SUITES_FIRSTRACE_COMPILER], tools)
    common = " -Wall -g -I%s -I%s " % (inc, suite_dir)
    # The C driver compiles a C++ source in the compiler's default dialect: gnu++17 for the clang
    # of the newer suites (16 and later), which they rely on (signal_in_mutex_lock.cpp:
    # `std::atomic<bool> spin = true;`); clang 14's default is gnu++14. The older suites' C++
    # sources compiled this way are valid in both.
    cc_cxx_source = " -std=gnu++17" if src.endswith((".cpp", ".cc")) else ""
    cmd = cmd.replace("%clangxx_tsan ", cxx + common).replace("%clang_tsan ", cc + cc_cxx_source + common)
    # compiler-rt's lit.common.cfg.py: %dynamiclib is lib<test>.dynamic.so beside %t, which
    # %ld_flags_rpath_exe links the program with (on_initialize_finalize_hooks.cpp)
    dynamiclib_name = os.path.basename(t) + ".dynamic"
    for k, v in (("%link_libcxx_tsan", ""), ("%darwin_min_target_with_tls_support", ""),
                 ("%ld_flags_rpath_exe", "-Wl,-rpath,\\$ORIGIN -L%s -l%s" % (
                     os.path.dirname(t), dynamiclib_name)),
                 ("%dynamiclib", os.path.join(os.path.dirname(t), "lib%s.so" % dynamiclib_name)),
                 ("%ld_flags_rpath_so", ""),
                 ("%t-dir", t + "-dir"), ("%t-so", t + "-so"), ("%p", os.path.dirname(src)),
                 ("%s", src), ("%t", t), ("%os", "Linux"), ("%python", "python3")):
        cmd = cmd.replace(k, v)
    return cmd


# ---------------------------------------------------------------------------------------------
# valgrind helgrind/ and drd/ regression tests
# ---------------------------------------------------------------------------------------------

def vg_field(text, key):
    m = re.search(r"^" + key + r":\s*(.*)$", text, re.M)
    return m.group(1).strip() if m else ""


VG_OTHER_PLATFORM = re.compile(r"freebsd|solaris|darwin|mips|ppc|powerpc|s390|arm|x86|32bit")


def vg_expected_verdict(exp):
    """1 when a helgrind/drd expected output shows a race, 0 when it shows none, "count" when
    its stderr filter kept only a non-zero error count (the kind of error is not in it)."""
    # drd's "Conflicting wait call" is its report of a barrier destroy racing with a wait
    # (pth_barrier_race.c: "triggers a race between pthread_barrier_wait() and
    # pthread_barrier_destroy()"); misuse reports (reinitialization, active waiters, ...) are not.
    if re.search(r"Possible data race|Conflicting (load|store|wait call)", exp):
        return 1
    lines = [l for l in exp.splitlines() if l.strip()]
    if lines and all(l.startswith("ERROR SUMMARY:") for l in lines):
        m = re.match(r"ERROR SUMMARY: (\d+) errors", lines[-1])
        if m and int(m.group(1)) > 0:
            return "count"
    return 0


def vg_built_programs(tests_dir, cache={}):
    """The programs the configured Makefile of a tests directory builds: check_PROGRAMS and
    the conditional additions configure left enabled (a disabled one is commented out)."""
    if tests_dir not in cache:
        names = set()
        makefile = os.path.join(tests_dir, "Makefile")
        if os.path.exists(makefile):
            text = re.sub(r"\\\n", " ", open(makefile, errors="replace").read())
            for m in re.finditer(r"^(check_PROGRAMS|am__append_\d+) =(.*)$", text, re.M):
                names.update(w.replace("$(EXEEXT)", "") for w in m.group(2).split())
        cache[tests_dir] = names
    return cache[tests_dir]


def vg_prereq_holds(prereq, tests_dir, helpers):
    """Whether a .vgtest's `prereq:` command succeeds here, as Valgrind's harness runs it in the
    tests directory after `make check`: `test -e PROG` asks whether the configured Makefile
    builds PROG (we do not run make), the os_test/libc_test helpers are built from the tree."""
    def built(m):
        path = os.path.normpath(os.path.join(tests_dir, m.group(2)))
        ok = os.path.basename(path) in vg_built_programs(os.path.dirname(path))
        return "true" if ok else "false"
    cmd = re.sub(r"(test -e|\[ -e) (\S+)( \])?", built, prereq)
    for helper, exe in helpers.items():
        cmd = cmd.replace("../../tests/" + helper, exe)
    code, _ = sh(cmd, tests_dir, 30)
    return code == 0


def vg_prereq_helpers(vg_root, work):
    """tests/os_test and tests/libc_test built as the tree's Makefile builds them."""
    helpers = {}
    for helper in ("os_test", "libc_test"):
        exe = os.path.join(work, helper)
        code, _ = sh(["cc", "-o", exe] + vg_platform_defines(vg_root) +
                     ["-I" + vg_root, os.path.join(vg_root, "tests", helper + ".c")], None, 60)
        if code == 0:
            helpers[helper] = exe
    return helpers


# Client requests that change nothing about which accesses race (they name a thread, trace an
# address, ask for a thread id, register a stack): natively they are no-ops and the test's
# verdict stays the program's own. Any other request (happens-before and lock annotations,
# ignored or benign ranges, custom allocators, cleaned shadow memory) has no meaning outside
# Valgrind, so a test using one is out of scope.
VG_PASSIVE_REQUESTS = {"ANNOTATE_THREAD_NAME", "DRD_TRACE_VAR", "DRD_STOP_TRACING_VAR",
                       "DRD_GET_VALGRIND_THREADID", "DRD_GET_DRD_THREADID",
                       "VALGRIND_STACK_REGISTER", "VALGRIND_STACK_DEREGISTER"}


def vg_client_requests(code):
    """The Valgrind client requests a test program uses (comments and `#if 0` blocks not
    counted); `DRD_(` stands for drd's own internals (the unit tests)."""
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    code = re.sub(r"//[^\n]*", " ", code)
    code = re.sub(r"^\s*#\s*if\s+0\b.*?^\s*#\s*endif\b", " ", code, flags=re.S | re.M)
    found = set(re.findall(r"\b(?:VALGRIND_\w+|ANNOTATE_\w+|U_ANNOTATE_\w+|DRD_\w+|RUNNING_ON_VALGRIND)",
                           code))
    if re.search(r"\bDRD_\(", code):
        found.add("DRD_(internals)")
    # the names a header defines (#define ANNOTATE_X ...) are not uses
    found -= set(re.findall(r"#\s*define\s+(\w+)", code))
    return found


def vg_cases(vgtest, tool_dir, vg_root, helpers):
    text = open(vgtest, errors="replace").read()
    stem = os.path.splitext(os.path.basename(vgtest))[0]
    tool = os.path.basename(tool_dir)
    name = "%s/%s" % (tool, stem)
    prog_words = vg_field(text, "prog").split()
    prog = prog_words[0] if prog_words else ""
    src = None
    for ext in (".c", ".cpp"):
        if os.path.exists(os.path.join(tool_dir, "tests", prog + ext)):
            src = os.path.join(tool_dir, "tests", prog + ext)
    exp_files = sorted(os.path.join(tool_dir, "tests", f) for f in os.listdir(os.path.join(tool_dir, "tests"))
                       if f.startswith(stem + ".stderr.exp"))
    # Valgrind's harness accepts the output if it matches any of the .stderr.exp* files. The
    # ones named for another platform (-freebsd, -solaris, -32bit, -x86, -mips32, ...) do not
    # apply to amd64 Linux: drd's tc22_exit_w_lock reports races only on 32-bit.
    native = [f for f in exp_files if not VG_OTHER_PLATFORM.search(f.rsplit(".stderr.exp", 1)[1])]
    verdicts = {vg_expected_verdict(open(f, errors="replace").read()) for f in (native or exp_files)}
    case = Case(name, 0)
    if verdicts == {0} or verdicts == {1}:
        case.expected = verdicts.pop()
    elif verdicts == {"count"}:
        # filter_error_summary / filter_error_count keep only drd's error count: the same program
        # with the same arguments under helgrind says what the errors are (resolved in collect)
        case.count_only = True
    elif exp_files:
        case.skip = "the suite accepts a race or none (expected outputs %s disagree)" % \
            ", ".join(os.path.basename(f) for f in (native or exp_files))
    if not src:
        case.skip = "program is not a C/C++ source of this directory (%s)" % (prog or "none")
        return [case]
    code = open(src, errors="replace").read()
    requests = vg_client_requests(code)
    if requests - VG_PASSIVE_REQUESTS:
        case.skip = "uses Valgrind client requests (no meaning outside Valgrind): " + \
            " ".join(sorted(requests - VG_PASSIVE_REQUESTS)[:3])
    elif "pthread" not in code and "thread" not in code and "omp" not in code:
        case.skip = "no threads"
    elif "#pragma omp" in code or "omp.h" in code:
        case.skip = "OpenMP (not this suite's subject)"
    elif re.search(r"--xml=yes", vg_field(text, "vgopts")):
        case.skip = "tests the tool's XML output (the same program is also a case without it)"
    elif re.search(r"--(exclusive|shared)-threshold", vg_field(text, "vgopts")):
        case.skip = "tests the tool's lock-hold-time reports (%s)" % vg_field(text, "vgopts")
    if not case.skip and not exp_files:
        case.skip = "no expected output"
    prereq = vg_field(text, "prereq")
    if not case.skip and prereq and not vg_prereq_holds(prereq, os.path.join(tool_dir, "tests"), helpers):
        case.skip = "the suite does not run it here (prereq: %s)" % prereq
    case.steps = [("vgcompile", src)]
    args = vg_field(text, "args")
    case.run = (prog_words[1:] + (shlex.split(args) if args else []), "")
    case.src = src
    case.vg_root = vg_root
    case.program_args = (os.path.realpath(src), tuple(case.run[0]))
    return [case]


def vg_platform_defines(vg_root):
    """-DVGO_linux=1 ... as Makefile.tool-tests.am passes them to every test (tc17_sembar and
    others choose their code by them), from the values configure wrote into the Makefiles."""
    conf = {}
    makefile = os.path.join(vg_root, "helgrind", "tests", "Makefile")
    if os.path.exists(makefile):
        for line in open(makefile, errors="replace"):
            m = re.match(r"(VGCONF_OS|VGCONF_ARCH_PRI|VGCONF_PLATVARIANT) = (\w+)\s*$", line)
            if m:
                conf[m.group(1)] = m.group(2)
    if len(conf) < 3:
        return []
    arch, os_, variant = conf["VGCONF_ARCH_PRI"], conf["VGCONF_OS"], conf["VGCONF_PLATVARIANT"]
    return ["-DVGA_%s=1" % arch, "-DVGO_%s=1" % os_, "-DVGP_%s_%s=1" % (arch, os_),
            "-DVGPV_%s_%s_%s=1" % (arch, os_, variant)]


def vg_compile(case, tool, exe, tools):
    src = case.src
    cxx = src.endswith(".cpp")
    if tool == "tsan":
        cmd = ["clang++" if cxx else "clang", "-fsanitize=thread"]
    else:
        cmd = ["env", "FIRSTRACE_CC=" + OTHER_SUITES_FIRSTRACE_COMPILER,
               "FIRSTRACE_CXX=" + COMPILER_CXX[OTHER_SUITES_FIRSTRACE_COMPILER],
               os.path.join(tools, "firstrace-c++" if cxx else "firstrace-cc")]
    inc = [os.path.join(case.vg_root, "include"), os.path.join(case.vg_root, "drd"),
           os.path.join(case.vg_root, "helgrind"), os.path.dirname(src),
           os.path.join(case.vg_root)]
    cmd += ["-g", "-O0", "-w", "-pthread"] + ["-I" + d for d in inc] + vg_platform_defines(case.vg_root)
    # C with the compiler's default dialect, as Valgrind's Makefiles build it (a -D_GNU_SOURCE
    # here made SIGSTKSZ a sysconf() call: memcheck's sigaltstack.c then did not compile)
    cmd += [getattr(case, "cxx_dialect", "-std=c++17")] if cxx else []
    cmd += getattr(case, "defines", [])
    cmd += [src, "-o", exe, "-lm", "-lrt"]
    return cmd


# ---------------------------------------------------------------------------------------------
# Google's racecheck unit tests (Valgrind's drd/tests/tsan_unittest.cpp)
# ---------------------------------------------------------------------------------------------

UNITTEST_LABEL = re.compile(r"^// test(\d+): *(TP|TN|FP|FN)\b", re.M)
UNITTEST_REGISTERED = re.compile(r"REGISTER_TEST2?\(\s*\w+\s*,\s*(\d+)\s*(?:,\s*([^)]*))?\)")
UNITTEST_BUILD_LOCK = threading.Lock()


def unittest_cases(path):
    """One case per labelled test of tsan_unittest.cpp (the module docstring says which)."""
    text = open(path, errors="replace").read()
    flags = {int(n): f or "FEATURE" for n, f in UNITTEST_REGISTERED.findall(text)}
    vg_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    cases = []
    for m in UNITTEST_LABEL.finditer(text):
        n, label = int(m.group(1)), m.group(2)
        case = Case("test%03d" % n, 1 if label in ("TP", "FN") else 0)
        f = flags.get(n)
        if f is None:
            case.skip = "not registered"
        elif "NEEDS_ANNOTATIONS" in f:
            case.skip = "needs dynamic annotations (Valgrind client requests in this build)"
        elif "EXCLUDE_FROM_ALL" in f:
            case.skip = "EXCLUDE_FROM_ALL (the suite's own run leaves it out)"
        elif "FEATURE" not in f:
            case.skip = "not a feature test (%s)" % f
        case.steps = [("utcompile", path)]
        case.run = ([str(n)], "")
        case.src = os.path.abspath(path)
        case.vg_root = vg_root
        case.defines = ['-DTHREAD_WRAPPERS="tsan_thread_wrappers_pthread.h"']
        case.cxx_dialect = "-std=gnu++17"  # the wrappers use typeof
        cases.append(case)
    return cases


def unittest_compile(case, tool, exe, tools, work, log):
    """The test program is built once per tool (7800 lines) and linked into each case's dir."""
    shared = os.path.join(work, "%s-tsan_unittest" % tool)
    with UNITTEST_BUILD_LOCK:
        if not os.path.exists(shared):
            code, out = sh(vg_compile(case, tool, shared + ".tmp", tools), work, BUILD_TIMEOUT, log=log)
            if code != 0:
                return code, out
            os.rename(shared + ".tmp", shared)
    shutil.copyfile(shared, exe)
    os.chmod(exe, 0o755)
    return 0, ""


# ---------------------------------------------------------------------------------------------
# LLVM OpenMP's Archer tests (lit)
# ---------------------------------------------------------------------------------------------

ARCHER_LIBRARY = "/usr/lib/llvm-14/lib/libarcher.so"


def archer_cases(path, suite_dir):
    text = open(path, errors="replace").read()
    case = Case(os.path.relpath(path, suite_dir), 0)
    case.src = path
    runs = [c for c in lit_run_lines(text) if "%libarcher" in c]
    if not runs:
        case.skip = "no Archer RUN line"
        return [case]
    expected = lit_expects_race(text, ["CHECK"])
    if not isinstance(expected, int):
        case.skip = expected
        return [case]
    case.expected = expected
    first = runs[0]
    # the RUN line's own compile flags (-fopenmp-version=50) and environment (OMP_NUM_THREADS)
    compile_part = first.split("&&", 1)[0]
    case.extra_flags = [f for f in compile_part.split() if f.startswith("-")]
    case.env = dict(re.findall(r"\b(OMP_\w+)='?([^'\s]*)'?", first))
    case.steps = [("ompcompile", path)]
    case.run = ([], "")
    case.suite_dir = suite_dir
    case.archer = True
    return [case]


def omp_compile(case, tool, exe, tools):
    if tool == "tsan":
        cmd = ["clang", "-fsanitize=thread", "-gdwarf-4"]
    else:
        cmd = ["env", "FIRSTRACE_CC=clang", os.path.join(tools, "firstrace-cc"), "-g"]
    return cmd + ["-O1", "-fopenmp", "-I", case.suite_dir] + case.extra_flags + [case.src, "-o", exe]
# GCC's ThreadSanitizer tests (DejaGnu)
# ---------------------------------------------------------------------------------------------

# GCC's harness (g++.dg/tsan/tsan.exp, gcc.dg/tsan/tsan.exp, lib/tsan-dg.exp) runs every test of
# its directory and of c-c++-common/tsan with `-fsanitize=thread -g` at each torture option: the
# c-c++-common tests once as C (gcc.dg) and once as C++ (g++.dg).
GCC_TORTURE_OPTIONS = ["-O0", "-O2"]
GCC_DIRS = {"c-c++-common/tsan": ["C", "C++"], "gcc.dg/tsan": ["C"], "g++.dg/tsan": ["C++"]}
# TSAN_OPTIONS a test may set without leaving the scope: halt_on_error=1 (simple_race.c) stops
# the program after the first report, which does not change whether there is one.
GCC_HARMLESS_TSAN_OPTIONS = {"halt_on_error", "atexit_sleep_ms"}
# The compiler firstrace-cc wraps for GCC's tests: gcc (their compiler) unless
# --firstrace-compiler clang.
GCC_SUITE_FIRSTRACE_COMPILER = "gcc"
# The compiler firstrace-cc wraps for compiler-rt's and Valgrind's tests: clang (TSan's) unless
# --firstrace-compiler gcc (what a user building the same programs with gcc would get).
OTHER_SUITES_FIRSTRACE_COMPILER = "clang"
COMPILER_CXX = {"gcc": "g++", "clang": "clang++"}


def tcl_words(text):
    """The words of a DejaGnu directive's argument list: "quoted" (backslash escapes kept as
    written), {braced} (nested) or bare."""
    words, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            words.append(text[i + 1:j])
            i = j + 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            words.append(text[i + 1:j - 1].strip())
            i = j
        else:
            j = i
            while j < len(text) and not text[j].isspace():
                j += 1
            words.append(text[i:j])
            i = j
    return words


def dg_directives(text):
    """(name, [words]) of every `{ dg-NAME ... }` in the test, in order."""
    found = []
    for m in re.finditer(r"\{\s*(dg-[\w-]+)", text):
        depth, j = 1, m.end()
        while j < len(text) and depth:  # to the matching brace (selectors nest)
            if text[j] == "\\":
                j += 1
            else:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        found.append((m.group(1), tcl_words(text[m.end():j - 1])))
    return found


def dg_target_holds(words):
    """Whether a directive's `{ target ... }` selector (if any) selects x86_64 GNU/Linux with
    pthreads: the selectors of these tests name triplets (`*-*-linux*`, `powerpc*-*-*`,
    `x86_64-*-linux*`) and the effective targets `pthread` and `lp64`."""
    sel = " ".join(words)
    if "target" not in sel:
        return True
    return bool(re.search(r"\*-\*-\*|linux|x86_64|\bpthread\b|\blp64\b", sel)) and "!" not in sel


def gcc_cases(path, testsuite):
    text = open(path, errors="replace").read()
    rel = os.path.relpath(path, testsuite)
    directory = os.path.dirname(rel)
    directives = dg_directives(text)
    what = "run"  # lib/tsan-dg.exp: dg-do-what-default is run where the runtime works
    options, additional, sources, tsan_opts, outputs = None, [], [], {}, []
    for name, words in directives:
        if name == "dg-do" and words:
            if dg_target_holds(words[1:]):
                what = words[0]
        elif name == "dg-options" and words and dg_target_holds(words[1:]):
            options = words[0]
        elif name == "dg-additional-options" and words and dg_target_holds(words[1:]):
            additional.append(words[0])
        elif name == "dg-additional-sources" and words:
            sources += words[0].split()
        elif name == "dg-set-target-env-var" and len(words) >= 2 and words[0] == "TSAN_OPTIONS":
            for opt in words[1].split(":"):
                if opt:
                    key, _, value = opt.partition("=")
                    tsan_opts[key] = value
        elif name == "dg-output" and words:
            outputs.append(words[0])
    flags = " ".join(([options] if options is not None else []) + additional)
    skip = None
    expected = 0
    # The scope rule of this suite (README "GCC's ThreadSanitizer tests"):
    if what != "run":
        skip = "dg-do %s: a test of gcc's instrumentation pass, never runs a program" % what
    elif any("ThreadSanitizer: data race" in o for o in outputs):
        expected = 1  # also "data race on vptr" (vptr_harmful_race.C)
    elif any("heap-use-after-free" in o for o in outputs):
        skip = "TSan's use-after-free report (a memory error; not always a race)"
    elif any("ThreadSanitizer:" in o for o in outputs):
        skip = "expects another TSan report only (%s)" % re.search(
            r"ThreadSanitizer: ([\w ]+)", " ".join(outputs)).group(1).strip()
    if skip:
        pass
    elif default_options_scope(text):
        skip = default_options_scope(text)
    elif sorted(set(tsan_opts) - GCC_HARMLESS_TSAN_OPTIONS):
        skip = "tests TSan flag " + ",".join(sorted(set(tsan_opts) - GCC_HARMLESS_TSAN_OPTIONS))
    elif re.search(r"--param[= ]?tsan-|-fsanitize-|-fno-sanitize", flags):
        skip = "tests an instrumentation option of gcc (%s)" % flags
    elif "pthread" not in text and "thread" not in text:
        skip = "no threads"
    languages = GCC_DIRS.get(directory, ["C++" if path.endswith(".C") else "C"])
    if skip:
        return [Case(rel, 0, skip=skip)]
    cases = []
    for language in languages:
        for opt in GCC_TORTURE_OPTIONS:
            case = Case("%s %s %s" % (rel, language, opt), expected, steps=[("gcccompile", None)])
            case.src = path
            case.extra_sources = [os.path.join(os.path.dirname(path), s) for s in sources]
            case.language = language
            case.flags = ["-fsanitize=thread", "-g", opt] + shlex.split(flags)
            case.run = ([], ":".join("%s=%s" % kv for kv in tsan_opts.items()))
            cases.append(case)
    return cases


def gcc_compile(case, tool, exe, tools):
    """The test's build as GCC's harness does it (its flags, `-I` of its directory for
    tsan_barrier.h), the c-c++-common tests compiled as C++ with `-x c++`. firstrace builds
    with gcc/g++ (the suite's compiler) through firstrace-cc/firstrace-c++; TSan is clang's."""
    cxx = case.language == "C++"
    if tool == "tsan":
        cmd = ["clang++" if cxx else "clang"]
    else:
        cc = GCC_SUITE_FIRSTRACE_COMPILER
        cmd = ["env", "FIRSTRACE_CC=" + cc, "FIRSTRACE_CXX=" + COMPILER_CXX[cc],
               os.path.join(tools, "firstrace-c++" if cxx else "firstrace-cc")]
    cmd += case.flags + ["-I" + os.path.dirname(case.src)]
    cmd += ["-x", "c++" if cxx else "c"] + [case.src] + case.extra_sources + ["-x", "none"]
    return cmd + ["-o", exe, "-pthread"]


def gcc_testsuite_dir(suite_dir):
    """gcc/testsuite of a GCC source tree given as the tree, gcc/, gcc/testsuite or one of
    its tsan directories; None if it is none of these."""
    for candidate in (suite_dir, os.path.join(suite_dir, "gcc", "testsuite"),
                      os.path.join(suite_dir, "testsuite"), os.path.dirname(os.path.dirname(suite_dir))):
        if os.path.isdir(os.path.join(candidate, "c-c++-common", "tsan")):
            return candidate
    return None


# ---------------------------------------------------------------------------------------------
# building and running
# ---------------------------------------------------------------------------------------------

def sh(cmd, cwd, timeout, env=None, log=None):
    # Each command in a session of its own: on a timeout the whole group goes (the traced program
    # under `firstrace record`, a fork child), not only the direct child, which would leave the
    # test program running on.
    p = subprocess.Popen(cmd, shell=isinstance(cmd, str), cwd=cwd, env=env, start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        out = p.communicate(timeout=timeout)[0].decode(errors="replace")
        code = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out = p.communicate()[0].decode(errors="replace") + "\n[timeout]\n"
        code = "timeout"
    if log:
        with open(log, "a") as f:
            f.write("$ %s\n%s\n[exit %s]\n" % (cmd if isinstance(cmd, str) else " ".join(cmd), out, code))
    return code, out


def firstrace_verdict(trace, tools, log):
    """0/1 or an error string. `firstrace analyze DIR` reports DIR's own trace and then each
    trace of a process DIR's program started (fork-<pid>, exec-<pid>), one summary each."""
    if not os.path.isdir(trace):
        return "run: no trace"
    code, out = sh(["prlimit", "--as=%d" % ANALYZE_MEMORY, os.path.join(tools, "firstrace"),
                    "analyze", trace, "-q"], None, ANALYZE_TIMEOUT, log=log)
    counts = [int(n) for n in re.findall(r"(\d+) apparent races", out)]
    if code != 0 or not counts:
        return "analyze: " + (out.strip().splitlines() or ["exit %s" % code])[-1][:100]
    return 1 if any(counts) else 0


def run_case(case, tool, work, tools, suite_dir):
    """Returns 0/1 (race reported) or 'build: ...' / 'run: ...' / 'analyze: ...'."""
    tag = re.sub(r"[^\w.-]", "_", case.name)
    d = os.path.join(work, tool, tag)
    os.makedirs(d, exist_ok=True)
    verdict_file = os.path.join(d, "verdict")
    if os.path.exists(verdict_file):  # --keep DIR of an earlier, interrupted run: resume
        v = open(verdict_file).read().strip()
        return int(v) if v in ("0", "1") else v
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d, exist_ok=True)
    v = run_case_fresh(case, tool, d, tools, suite_dir)
    with open(verdict_file, "w") as f:
        f.write("%s\n" % v)
    return v


def run_case_fresh(case, tool, d, tools, suite_dir):
    log = os.path.join(d, "log")
    t = os.path.join(d, "t")
    env = dict(os.environ)
    for step, cmd in case.steps:
        if step == "vgcompile":
            code, out = sh(vg_compile(case, tool, t, tools), d, BUILD_TIMEOUT, log=log)
        elif step == "ompcompile":
            code, out = sh(omp_compile(case, tool, t, tools), d, BUILD_TIMEOUT, log=log)
        elif step == "gcccompile":
            code, out = sh(gcc_compile(case, tool, t, tools), d, BUILD_TIMEOUT, log=log)
        elif step == "utcompile":
            code, out = unittest_compile(case, tool, t, tools, os.path.dirname(os.path.dirname(d)), log)
        elif step == "other":
            continue
        else:
            full = lit_substitute(cmd, tool, t, case.src, suite_dir, tools)
            code, out = sh(full, d, BUILD_TIMEOUT, env=env, log=log)
        if code != 0 and step in ("compile", "vgcompile", "ompcompile", "gcccompile", "utcompile"):
            first = [l for l in out.splitlines() if "error" in l] or out.splitlines() or ["?"]
            return "build: " + first[0][:120]
    args, opts = case.run
    if any(step == "compile" for step, _ in case.steps):  # a lit test
        args = [lit_substitute(a, tool, t, case.src, suite_dir, tools) for a in args]
        opts = lit_substitute(opts, tool, t, case.src, suite_dir, tools)
    env.update(getattr(case, "env", {}))
    for name, value in getattr(case, "run_env", []):
        if name == "TSAN_OPTIONS":
            continue
        value = lit_substitute(value, tool, t, case.src, suite_dir, tools)
        # lit's %{readfile:FILE} (LLVM 20 and later): the file an earlier step wrote
        value = re.sub(r"%\{readfile:([^}]*)\}",
                       lambda m: open(m.group(1)).read() if os.path.exists(m.group(1)) else "", value)
        # the shell's ${NAME:+:$NAME} of the RUN line, as lit's shell expands it
        env[name] = subprocess.run(["sh", "-c", 'printf %s "' + value + '"'], env=env,
                                   stdout=subprocess.PIPE, check=False).stdout.decode()
    if tool == "tsan" and getattr(case, "archer", False):  # Archer's suite: TSan + Archer
        env["OMP_TOOL_LIBRARIES"] = ARCHER_LIBRARY
        opts = "ignore_noninstrumented_modules=1" + (":" + opts if opts else "")
    if tool == "tsan":
        env["TSAN_OPTIONS"] = "atexit_sleep_ms=0:halt_on_error=0:exitcode=0:report_signal_unsafe=0" + \
            (":" + opts if opts else "")
        code, out = sh([t] + args, d, RUN_TIMEOUT, env=env, log=log)
        if code == "timeout":
            return "run: timeout"
        if re.search(r"ThreadSanitizer: (data race|heap-use-after-free)", out):
            return 1
        if re.search(r"ThreadSanitizer: (CHECK failed|.*unexpected memory mapping|failed to)", out):
            return "run: " + out.strip().splitlines()[-1][:100]
        return 0
    # the test's TSAN_OPTIONS: firstrace's runtime keeps the settings it models in the trace
    # (suppressions, report_bugs); the exit delay and halt_on_error mean nothing to it
    if opts:
        env["TSAN_OPTIONS"] = opts
    else:
        env.pop("TSAN_OPTIONS", None)
    trace = t + ".trace"
    shutil.rmtree(trace, ignore_errors=True)
    code, out = sh([os.path.join(tools, "firstrace"), "record", "-q", "-o", trace, "--", t] + args,
                   d, RUN_TIMEOUT, env=env, log=log)
    if code == "timeout":
        return "run: timeout"
    return firstrace_verdict(trace, tools, log)


def collect(suite_dir):
    suite_dir = os.path.abspath(suite_dir)
    if os.path.isfile(suite_dir) and os.path.basename(suite_dir) == "tsan_unittest.cpp":
        return "racecheck unit tests (tsan_unittest.cpp)", os.path.dirname(suite_dir), \
            unittest_cases(suite_dir)
    cases = []
    lit_cfg = os.path.join(suite_dir, "lit.cfg.py")
    if os.path.exists(lit_cfg) and "ThreadSanitizer" in open(lit_cfg).read():
        for root, _, files in sorted(os.walk(suite_dir)):
            for f in sorted(files):
                if f.endswith((".c", ".cpp", ".cc", ".m", ".mm")):
                    path = os.path.join(root, f)
                    if f.endswith((".m", ".mm")):
                        cases.append(Case(os.path.relpath(path, suite_dir), 0, skip="Objective-C"))
                        continue
                    for c in lit_cases(path, suite_dir):
                        c.src = path
                        cases.append(c)
        return "compiler-rt tsan", suite_dir, cases
    lit_cfg = os.path.join(suite_dir, "lit.cfg")
    if os.path.exists(lit_cfg) and "libarcher" in open(lit_cfg).read():
        for root, _, files in sorted(os.walk(suite_dir)):
            for f in sorted(files):
                if f.endswith((".c", ".cpp")):
                    cases.extend(archer_cases(os.path.join(root, f), suite_dir))
        return "LLVM OpenMP archer (tsan column: clang TSan + Archer)", suite_dir, cases
    testsuite = gcc_testsuite_dir(suite_dir)
    if testsuite:
        # one of the tsan directories given: that one only; otherwise all three
        dirs = [d for d in GCC_DIRS if os.path.realpath(os.path.join(testsuite, d)) == os.path.realpath(suite_dir)] \
            or list(GCC_DIRS)
        for d in dirs:
            full = os.path.join(testsuite, d)
            for f in sorted(os.listdir(full)) if os.path.isdir(full) else []:
                if f.endswith((".c", ".C", ".cc", ".cpp")):
                    cases.extend(gcc_cases(os.path.join(full, f), testsuite))
        return "gcc tsan (%s)" % " ".join(dirs), suite_dir, cases
    vg_root = suite_dir
    tool_dirs = []
    for tool in ("helgrind", "drd"):
        if os.path.isdir(os.path.join(suite_dir, tool, "tests")):
            tool_dirs.append(os.path.join(suite_dir, tool))
    if not tool_dirs and os.path.isdir(os.path.join(suite_dir, "tests")):
        tool_dirs = [suite_dir]
        vg_root = os.path.dirname(suite_dir)
    if not tool_dirs:
        sys.exit("external.sh: %s is neither compiler-rt/test/tsan, openmp/tools/archer/tests, "
                 "GCC's testsuite, a Valgrind source tree nor its drd/tests/tsan_unittest.cpp"
                 % suite_dir)
    # Valgrind's tests include the config.h its configure writes (VGO_linux, HAVE_* ...): without
    # it a third of them do not build with any tool.
    if not os.path.exists(os.path.join(vg_root, "config.h")):
        sys.exit("external.sh: %s/config.h not found: run ./configure in the Valgrind tree first" % vg_root)
    helper_dir = tempfile.mkdtemp(prefix="peer-external-vg.")
    helpers = vg_prereq_helpers(vg_root, helper_dir)
    for td in tool_dirs:
        tests = os.path.join(td, "tests")
        for f in sorted(os.listdir(tests)):
            if f.endswith(".vgtest"):
                cases.extend(vg_cases(os.path.join(tests, f), td, vg_root, helpers))
    shutil.rmtree(helper_dir, ignore_errors=True)
    # drd tests whose expectation is only an error count take the verdict of a test running the
    # same program with the same arguments whose expectation shows the errors (helgrind's copy).
    shown = {}
    for c in cases:
        if hasattr(c, "src") and not c.count_only and not c.skip:
            shown.setdefault(c.program_args, set()).add(c.expected)
    for c in cases:
        if not c.count_only or c.skip:
            continue
        if len(shown.get(c.program_args, ())) == 1:
            c.expected = next(iter(shown[c.program_args]))
        else:
            c.skip = "expected output is only an error count; no test of the same program shows the errors"
    return "valgrind " + "+".join(os.path.basename(t) for t in tool_dirs), suite_dir, cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite_dir")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="list the cases and their expected verdicts")
    ap.add_argument("--only", help="regular expression on case names")
    ap.add_argument("--keep", help="keep build products, logs and verdicts in this directory "
                    "(an interrupted run given the same directory resumes)")
    ap.add_argument("--firstrace-compiler", choices=("gcc", "clang"),
                    help="the compiler firstrace-cc wraps (default: gcc for GCC's tests, clang "
                    "for compiler-rt's and Valgrind's, as TSan is; Archer's always clang)")
    a = ap.parse_args()
    global GCC_SUITE_FIRSTRACE_COMPILER, OTHER_SUITES_FIRSTRACE_COMPILER
    if a.firstrace_compiler:
        GCC_SUITE_FIRSTRACE_COMPILER = OTHER_SUITES_FIRSTRACE_COMPILER = a.firstrace_compiler
    tools = os.path.abspath(os.path.join(a.build, "bin"))
    if not os.path.exists(os.path.join(tools, "firstrace-cc")):
        sys.exit("external.sh: %s/firstrace-cc not found (build first, or --build DIR)" % tools)
    kind, suite_dir, cases = collect(a.suite_dir)
    if a.only:
        cases = [c for c in cases if re.search(a.only, c.name)]
    if a.list:
        for c in cases:
            print("%-48s %-4s %s" % (c.name, "racy" if c.expected else "free", c.skip or ""))
        return
    work = a.keep or tempfile.mkdtemp(prefix="peer-external.")
    os.makedirs(work, exist_ok=True)
    todo = [(c, tool) for c in cases if not c.skip for tool in ("firstrace", "tsan")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        futures = {pool.submit(run_case, c, tool, work, tools, suite_dir): (c, tool) for c, tool in todo}
        for fut in concurrent.futures.as_completed(futures):
            c, tool = futures[fut]
            try:
                c.result[tool] = fut.result()
            except Exception as e:  # a bug of this script, not of a tool: show it
                c.result[tool] = "script: %s" % e
    print("suite: %s (%s)" % (kind, suite_dir))
    print("%-48s %-4s %-22s %-22s" % ("case", "exp", "firstrace", "tsan"))
    stats = {t: dict(TP=0, FP=0, FN=0, TN=0, build=0, run=0) for t in ("firstrace", "tsan")}
    skipped = []
    for c in cases:
        if c.skip:
            skipped.append(c)
            continue
        cells = []
        for tool in ("firstrace", "tsan"):
            r = c.result[tool]
            s = stats[tool]
            if isinstance(r, int):
                got = r
                cells.append("race" if r else "no race")
            else:
                s["build" if r.startswith("build") else "run"] += 1
                got = 1 - c.expected
                cells.append(r.split(":")[0] + " FAIL")
            key = ("TP" if got else "FN") if c.expected else ("FP" if got else "TN")
            s[key] += 1
            cells[-1] += "" if key in ("TP", "TN") else " (%s)" % key
        print("%-48s %-4s %-22s %-22s" % (c.name, "racy" if c.expected else "free", cells[0], cells[1]))
        for tool in ("firstrace", "tsan"):
            r = c.result[tool]
            if not isinstance(r, int):
                print("    %s: %s" % (tool, r))
    print()
    print("out of scope (%d):" % len(skipped))
    for c in skipped:
        print("  %-46s %s" % (c.name, c.skip))
    print()
    n = len(cases) - len(skipped)
    print("%d cases in scope" % n)
    for tool in ("firstrace", "tsan"):
        s = stats[tool]
        p = s["TP"] / (s["TP"] + s["FP"]) if s["TP"] + s["FP"] else 1.0
        r = s["TP"] / (s["TP"] + s["FN"]) if s["TP"] + s["FN"] else 1.0
        print("%-10s TP %d FP %d FN %d TN %d  precision %.2f recall %.2f  build failures %d  run failures %d"
              % (tool, s["TP"], s["FP"], s["FN"], s["TN"], p, r, s["build"], s["run"]))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
