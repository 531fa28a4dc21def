#!/bin/bash
# Precision and recall of firstrace and of clang ThreadSanitizer on other projects' test suites
# for race detectors: their in-scope C/C++ pthread programs, with the expected verdict taken
# from each suite's own expectations (external.py explains how).
#
#   bench/peer_suite/external.sh SUITE_DIR [--build BUILD_DIR] [-j N] [--only REGEX] [--keep DIR]
#                                 [--firstrace-compiler gcc|clang]   (default: gcc for GCC's tests, clang otherwise)
#
# SUITE_DIR is a suite the user extracted (none of their code is in this repository):
#   - LLVM compiler-rt's ThreadSanitizer lit tests: SUITE_DIR = .../compiler-rt/test/tsan, e.g.
#       apt-get source llvm-toolchain-14   (Debian bookworm; needs a deb-src entry; -19 is the
#       newest there, the same commands; a deb-src entry for `trixie sid` brings the newest
#       suites: llvm-toolchain-22, valgrind 3.27, gcc-15)
#       tar xf llvm-toolchain-14_*.orig.tar.xz --wildcards '*/compiler-rt/test/tsan/*' \
#         '*/compiler-rt/test/sanitizer_common/*.h'
#   - LLVM OpenMP's Archer lit tests: SUITE_DIR = .../openmp/tools/archer/tests (same source;
#       tar xf llvm-toolchain-14_*.orig.tar.xz --wildcards '*/openmp/tools/archer/tests/*')
#     compared with clang TSan + Archer (libarcher.so)
#   - Valgrind's helgrind and drd regression tests: SUITE_DIR = the Valgrind source tree
#     (or its helgrind/ or drd/ directory), e.g.
#       apt-get source valgrind; tar xjf valgrind_*.orig.tar.bz2; (cd valgrind-* && ./configure)
#     (the tests include the config.h that configure writes)
#   - Google's racecheck unit tests (ThreadSanitizer v1 / Helgrind feature tests, labelled TP/FN/
#     TN/FP by their authors), as Valgrind ships them: SUITE_DIR = the Valgrind tree's
#     drd/tests/tsan_unittest.cpp (the same `apt-get source valgrind` and configure as above)
#   - GCC's ThreadSanitizer tests: SUITE_DIR = the GCC tree (or gcc/testsuite), e.g.
#       apt-get source --download-only gcc-12; tar xzf gcc-12_*.orig.tar.gz
#       tar xJf gcc-12-*/gcc-*-dfsg.tar.xz --wildcards '*/gcc/testsuite/c-c++-common/tsan/*' \
#         '*/gcc/testsuite/g++.dg/tsan/*' '*/gcc/testsuite/gcc.dg/tsan/*'
#     (built for firstrace with gcc/g++, the suite's compiler)
#
# Each in-scope test is built with firstrace-cc/firstrace-c++ (clang; gcc for GCC's tests) and with
# clang -fsanitize=thread, run once by each tool; prints one line per case (expected verdict,
# what each tool said, build/run failures), the out-of-scope tests with their reason, and per
# tool TP FP FN TN, precision, recall, build failures and run failures. A build or run failure
# counts against the tool (a miss on a racy case, a false report on a race-free one).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
exec python3 "$here/external.py" --build "${FIRSTRACE_BUILD_DIR:-$here/../../build}" "$@"
