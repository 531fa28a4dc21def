// Helpers shared by the unit tests: STD traces from strings and random STD traces.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "firstrace/trace_loader.hpp"
#include "std_trace_generator.hpp"

namespace firstrace::test {

// Writes `text` to a temporary .std file and returns its path (removed by the destructor).
class TempFile {
  public:
    explicit TempFile(const std::string& text, const std::string& suffix = ".std") {
        char name[] = "/tmp/firstrace-test-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) throw std::runtime_error("mkstemp failed");
        close(fd);
        std::remove(name);
        path_ = std::string(name) + suffix;
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

inline Trace parse_std(const std::string& text) {
    TempFile file(text);
    return read_std_trace(file.path());
}

inline std::string random_std(const bench::GeneratorParams& params) {
    std::ostringstream out;
    bench::StdTraceGenerator(params).write(out);
    return out.str();
}

// Random OS threads, private storage and atomic sites on a parsed STD trace (whose addresses are
// variable ids), for the differential tests of private storage (Trace::private_to_both) and of
// atomic/plain conflicts, which STD text cannot express. Processes share 1-3 OS threads (some
// none), whose stacks and TLS blocks cover some of the variables.
inline void add_os_threads_and_atomics(Trace& trace, std::uint64_t seed) {
    std::mt19937_64 rng(seed * 104729 + 17);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    std::uint64_t addresses = 1;
    for (const Interval& r : trace.ranges)
        addresses = std::max(addresses, r.hi);
    const auto threads = static_cast<std::uint32_t>(pick(1, 3));
    trace.os_threads.clear();
    for (std::uint32_t i = 0; i < threads; ++i) {
        OsThread t;
        t.tid = 100 + i;
        t.stack.lo = pick(0, addresses - 1);
        t.stack.hi = pick(t.stack.lo + 1, addresses);
        if (pick(0, 1) == 1) {
            t.tls.lo = pick(0, addresses - 1);
            t.tls.hi = t.tls.lo + 1;
        }
        trace.os_threads.push_back(t);
    }
    for (Process& p : trace.processes) {
        const auto t = static_cast<std::uint32_t>(pick(0, threads));
        p.os_thread = t == threads ? kNone : t;
        if (p.os_thread != kNone) {
            const Interval& stack = trace.os_threads[p.os_thread].stack;
            p.private_below = pick(stack.lo, stack.hi);
        }
    }
    for (AccessSite& site : trace.sites)
        if (pick(0, 3) == 0) site.flags |= kAccessAtomic;
}

} // namespace firstrace::test
