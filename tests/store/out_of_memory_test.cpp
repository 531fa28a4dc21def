// Running out of memory is an input error like any other (issue 13): one line naming the
// input, exit code 2, not "std::bad_alloc" and not a crash.
#include <string>

#include "store_test_support.hpp"

namespace firstrace {
namespace {

using test::TempDir;

// `firstrace ARGS` with its address space limited to `kib` KiB (the shell's ulimit -v).
test::CommandRun run_firstrace_limited(std::size_t kib, const std::string& args) {
    TempDir dir;
    const std::string out = dir.file("out"), err = dir.file("err");
    const std::string command = "ulimit -v " + std::to_string(kib) + " && " +
                                std::string(FIRSTRACE_BINARY) + " " + args + " >" + out + " 2>" +
                                err;
    const int status = std::system(command.c_str());
    test::CommandRun r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = test::read_file(out);
    r.err = test::read_file(err);
    return r;
}

TEST(OutOfMemory, AnalyzeNamesTheTraceOnOneLine) {
    TempDir dir;
    const std::string trace = dir.file("large.std");
    // About 3 * 10^6 operations (40 MB of text): reading it needs well over 100 MiB, while
    // the binary starts (and prints its version) in about 20 MiB.
    test::write_random_std(trace, 1, 3000000);
    constexpr std::size_t kLimitKib = 48 * 1024;
    ASSERT_EQ(run_firstrace_limited(kLimitKib, "--version").status, 0);
    const test::CommandRun r = run_firstrace_limited(kLimitKib, "analyze -q " + trace);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "firstrace analyze: " + trace +
                         ": out of memory (more than this process may allocate)\n");
}

} // namespace
} // namespace firstrace
