// process_traces (firstrace/process_traces.hpp): the nested traces of a trace directory, in
// depth-first order by process id, only directories named fork-<pid> / exec-<pid> that hold a
// metadata file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "firstrace/process_traces.hpp"

namespace fs = std::filesystem;

namespace {

void make_trace(const fs::path& dir) {
    fs::create_directories(dir);
    std::ofstream(dir / "metadata") << "firstrace-trace 1\n";
}

std::vector<std::string> relative(const std::vector<firstrace::ProcessTrace>& traces,
                                  const fs::path& root) {
    std::vector<std::string> out;
    out.reserve(traces.size());
    for (const auto& t : traces)
        out.push_back(fs::relative(t.path, root).string() + ":" + t.started_by);
    return out;
}

} // namespace

TEST(ProcessTraces, NestedTracesDepthFirstByProcessId) {
    const fs::path root =
        fs::temp_directory_path() / ("firstrace-process-traces-" + std::to_string(::getpid()));
    fs::remove_all(root);
    make_trace(root);
    make_trace(root / "fork-100"); // numeric order: after fork-99
    make_trace(root / "fork-99");
    make_trace(root / "fork-99" / "fork-7");    // a grandchild
    make_trace(root / "exec-100");              // fork-100's exec, after its fork trace
    make_trace(root / "exec-100" / "exec-100"); // an exec chain
    fs::create_directories(root / "fork-5");    // no metadata: not a trace
    make_trace(root / "fork-x1");               // not a pid
    make_trace(root / "spawn-3");               // not a process trace name
    std::ofstream(root / "fork-8") << "a file\n";
    EXPECT_EQ(
        relative(firstrace::process_traces(root.string()), root),
        (std::vector<std::string>{".:", "fork-99:fork", "fork-99/fork-7:fork", "fork-100:fork",
                                  "exec-100:exec", "exec-100/exec-100:exec"}));
    fs::remove_all(root);
}

TEST(ProcessTraces, ATextTraceIsItselfAlone) {
    const auto traces = firstrace::process_traces("/nonexistent/trace.std");
    ASSERT_EQ(traces.size(), 1u);
    EXPECT_EQ(traces[0].path, "/nonexistent/trace.std");
    EXPECT_EQ(traces[0].started_by, "");
}
