// Reads a trace (load_trace, as `firstrace analyze` does before its first stage) and prints what
// the model holds and what reading it cost: CPU seconds and peak resident set. The reader alone,
// without the analysis, for the traces of real programs (DESIGN-NOTES "Reading large traces").
//
//   trace_reading_benchmark TRACE [--progress]
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"

namespace {

double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

long peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

constexpr std::size_t kNoFork = static_cast<std::size_t>(-1);

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "--progress") != 0)) {
        std::fprintf(stderr, "usage: %s TRACE [--progress]\n", argv[0]);
        return 2;
    }
    firstrace::ProgressCallback progress;
    if (argc == 3)
        progress = [](const std::string& stage, double fraction) {
            std::fprintf(stderr, "%s %.0f%%\n", stage.c_str(), fraction * 100.0);
        };
    try {
        const firstrace::Trace trace = firstrace::load_trace(argv[1], progress);
        std::printf("processes %zu events %zu sites %zu ranges %zu locations %zu contexts %zu "
                    "objects %zu heap-blocks %zu\n",
                    trace.processes.size(), trace.event_count(), trace.sites.size(),
                    trace.ranges.size(), trace.locations.size(), trace.contexts.size(),
                    trace.objects.size(), trace.heap_blocks.size());
        std::printf("site table %zu MiB (%zu access points), range table %zu MiB (%zu wide)\n",
                    trace.sites.bytes() >> 20, trace.sites.points().size(),
                    trace.ranges.bytes() >> 20, trace.ranges.wide_count());
        for (std::size_t p = 0; p < trace.processes.size(); ++p) {
            std::size_t sites = 0, ranges = 0, first_fork = kNoFork;
            const auto& events = trace.processes[p].events;
            for (std::size_t i = 0; i < events.size(); ++i) {
                const firstrace::Event& e = events[i];
                if (e.kind == firstrace::EventKind::Fork && first_fork == kNoFork) first_fork = i;
                sites += e.site_count;
                for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s)
                    ranges += trace.sites[s].range_count;
            }
            std::printf("  %s: events %zu (first fork at %zu) sites %zu ranges %zu\n",
                        trace.processes[p].name.c_str(), events.size(),
                        first_fork == kNoFork ? events.size() : first_fork, sites, ranges);
        }
        std::printf("cpu %.2f s peak-rss %ld MiB\n", cpu_seconds(), peak_rss_mib());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s (cpu %.2f s, peak-rss %ld MiB)\n", argv[0], e.what(),
                     cpu_seconds(), peak_rss_mib());
        return 2;
    }
    return 0;
}
