// Builds G of a trace and its reachability index alone (no later stage) and prints G's shape
// (nodes, synchronization edges, processes, slots, cross-process acquires: the checkpoints of
// sparse vector timestamps), the index chosen, its build CPU seconds and the peak resident set.
// With --queries N it then times N random point queries (EventOrder::precedes' form, finish
// node to start node) and, with --check, compares them against breadth-first search from a few
// sources (DESIGN-NOTES "Reachability on lock hand-overs").
//
//   reachability_benchmark TRACE [--budget ENTRIES] [--queries N] [--check SOURCES]
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "firstrace/analysis.hpp"
#include "firstrace/trace_loader.hpp"
#include "reachability_index.hpp"
#include "temporal_graph.hpp"

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

} // namespace

int main(int argc, char** argv) {
    using namespace firstrace;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TRACE [--budget ENTRIES] [--queries N] [--check S]\n",
                     argv[0]);
        return 2;
    }
    std::uint64_t budget = kDefaultTimestampBudget, queries = 0, check = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::uint64_t v = std::strtoull(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--budget") == 0)
            budget = v;
        else if (std::strcmp(argv[i], "--queries") == 0)
            queries = v;
        else if (std::strcmp(argv[i], "--check") == 0)
            check = v;
    }
    try {
        const Trace trace = load_trace(argv[1], {});
        double t0 = cpu_seconds();
        const TemporalGraph g(trace);
        std::uint64_t cross_in = 0;
        {
            std::vector<bool> seen(g.node_count());
            for (const auto& [from, to] : g.sync_edges())
                if (!seen[to.value]) {
                    seen[to.value] = true;
                    ++cross_in;
                }
        }
        std::printf("nodes %u events %u processes %u slots %u sync-edges %zu sync-targets %llu "
                    "(graph %.2f s, peak-rss %ld MiB)\n",
                    g.node_count(), g.event_count(), g.process_count(), g.slot_count(),
                    g.sync_edges().size(), static_cast<unsigned long long>(cross_in),
                    cpu_seconds() - t0, peak_rss_mib());
        t0 = cpu_seconds();
        const GraphReachability ts = [&] {
            const NodeGraph graph = NodeGraph::of(g);
            const Components comps = strong_components(graph);
            return GraphReachability(g, graph, comps, budget);
        }();
        std::printf("index: %s (build %.2f s, peak-rss %ld MiB)\n", ts.describe().c_str(),
                    cpu_seconds() - t0, peak_rss_mib());
        if (const VectorTimestamps* vt = ts.timestamps(); vt != nullptr) {
            // How much each checkpoint's row differs from its process's previous one.
            const std::uint32_t p = std::max<std::uint32_t>(g.slot_count(), 1);
            std::uint64_t changes = 0, firsts = 0, set = 0;
            for (const ProcessId q : g.processes()) {
                if (g.process_events(q).empty()) continue;
                const NodeId first = g.start_node(g.process_begin(q));
                const NodeId last = g.finish_node(EventId(g.process_end(q).value - 1));
                std::vector<std::int32_t> prev(p, -1);
                bool have = false;
                for (std::uint32_t n = first.value; n <= last.value; ++n) {
                    if (!vt->is_checkpoint(NodeId(n))) continue;
                    const VectorTimestamps::Row r = vt->row(NodeId(n));
                    for (std::uint32_t s = 0; s < p; ++s) {
                        changes += have && r[s] != prev[s] ? 1 : 0;
                        set += r[s] >= 0 ? 1 : 0;
                        prev[s] = r[s];
                    }
                    firsts += have ? 0 : 1;
                    have = true;
                }
            }
            std::printf("rows: %llu entries set, %llu changes against the process's previous "
                        "checkpoint, %llu first rows\n",
                        static_cast<unsigned long long>(set),
                        static_cast<unsigned long long>(changes),
                        static_cast<unsigned long long>(firsts));
        }
        std::mt19937_64 rng(1);
        if (queries > 0) {
            std::uniform_int_distribution<std::uint32_t> pick(0, g.event_count() - 1);
            std::uint64_t yes = 0;
            t0 = cpu_seconds();
            for (std::uint64_t k = 0; k < queries; ++k) {
                const EventId x(pick(rng)), y(pick(rng));
                yes += ts.reaches(g.finish_node(x), g.start_node(y)) ? 1 : 0;
            }
            std::printf("queries %llu: %llu true, %.3f s\n",
                        static_cast<unsigned long long>(queries),
                        static_cast<unsigned long long>(yes), cpu_seconds() - t0);
        }
        if (check > 0) {
            const NodeGraph graph = NodeGraph::of(g);
            std::uniform_int_distribution<std::uint32_t> pick(0, g.node_count() - 1);
            std::vector<char> seen(g.node_count());
            std::vector<NodeId> stack;
            std::uint64_t wrong = 0;
            for (std::uint64_t k = 0; k < check; ++k) {
                const NodeId s(pick(rng));
                std::fill(seen.begin(), seen.end(), 0);
                stack.assign(1, s);
                seen[s.value] = 1;
                while (!stack.empty()) {
                    const NodeId v = stack.back();
                    stack.pop_back();
                    graph.for_each_successor(v, [&](NodeId w) {
                        if (!seen[w.value]) {
                            seen[w.value] = 1;
                            stack.push_back(w);
                        }
                    });
                }
                for (const NodeId t : g.nodes())
                    wrong += (seen[t.value] != 0) != ts.reaches(s, t) ? 1 : 0;
            }
            std::printf("checked %llu sources against search: %llu wrong\n",
                        static_cast<unsigned long long>(check),
                        static_cast<unsigned long long>(wrong));
            if (wrong != 0) return 1;
        }
        std::printf("cpu %.2f s peak-rss %ld MiB\n", cpu_seconds(), peak_rss_mib());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s (cpu %.2f s, peak-rss %ld MiB)\n", argv[0], e.what(),
                     cpu_seconds(), peak_rss_mib());
        return 2;
    }
    return 0;
}
