// Throughput and peak memory of each analysis stage on a large STD trace:
//   analysis_benchmark --operations 10000000            (generates the trace first)
//   analysis_benchmark --trace big.std                  (reads an existing one)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "firstrace/analysis.hpp"
#include "firstrace/trace_loader.hpp"
#include "generator_options.hpp"
#include "resource_usage.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    using Clock = std::chrono::steady_clock;
    firstrace::bench::GeneratorParams params;
    params.operations = 1000000;
    params.threads = 8;
    params.locks = 4;
    params.variables = 10000;
    params.locations = 1000;
    std::string trace_path, ordering = "complete";
    po::options_description desc("usage: analysis_benchmark [options]\n\noptions");
    desc.add_options()("help,h", "show this help")(
        "trace", po::value(&trace_path), "analyze this STD trace instead of generating one")(
        "ordering", po::value(&ordering)->default_value(ordering), "approximate or complete");
    firstrace::bench::add_generator_options(desc, params);
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "analysis_benchmark: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    std::string generated;
    if (trace_path.empty()) {
        generated = (std::filesystem::temp_directory_path() / "firstrace-bench.std").string();
        std::ofstream out(generated);
        const auto t0 = Clock::now();
        const auto lines = firstrace::bench::StdTraceGenerator(params).write(out);
        std::printf("generated %llu lines (%u threads, %u locks, %u variables) in %.2f s\n",
                    static_cast<unsigned long long>(lines), params.threads, params.locks,
                    params.variables, std::chrono::duration<double>(Clock::now() - t0).count());
        trace_path = generated;
    }
    try {
        const auto t0 = Clock::now();
        const firstrace::Trace trace = firstrace::read_std_trace(trace_path);
        const double read_s = std::chrono::duration<double>(Clock::now() - t0).count();
        const double events = static_cast<double>(trace.event_count());
        const double accesses = static_cast<double>(trace.access_count());
        std::printf("trace: %.0f events, %.0f accesses (site ranges), %zu processes\n", events,
                    accesses, trace.processes.size());
        std::printf("%-26s %9s %14s %14s %10s\n", "stage", "seconds", "events/s", "accesses/s",
                    "peak MiB");
        std::printf("%-26s %9.3f %14.0f %14.0f %10.0f\n", "read STD trace", read_s, events / read_s,
                    accesses / read_s, firstrace::peak_rss_bytes() / 1048576.0);
        firstrace::AnalysisOptions options;
        options.ordering = ordering == "approximate" ? firstrace::Ordering::Approximate
                                                     : firstrace::Ordering::Complete;
        const auto t1 = Clock::now();
        const firstrace::AnalysisResult result = firstrace::analyze(trace, options);
        const double total = std::chrono::duration<double>(Clock::now() - t1).count();
        for (const auto& s : result.stages)
            std::printf("%-26s %9.3f %14.0f %14.0f %10.0f\n", s.name.c_str(), s.seconds,
                        s.seconds > 0 ? events / s.seconds : 0.0,
                        s.seconds > 0 ? accesses / s.seconds : 0.0, s.peak_rss_bytes / 1048576.0);
        std::printf("%-26s %9.3f %14.0f %14.0f %10.0f\n", "analysis total", total, events / total,
                    accesses / total, firstrace::peak_rss_bytes() / 1048576.0);
        const auto& c = result.counts;
        std::printf("races: %llu apparent, %llu feasible, %llu feasible-ec, %llu unvalidated, %llu "
                    "tangles, "
                    "%llu partitions (%llu first)\n",
                    (unsigned long long)c.apparent, (unsigned long long)c.feasible,
                    (unsigned long long)c.feasible_ec, (unsigned long long)c.unvalidated,
                    (unsigned long long)c.tangles, (unsigned long long)c.partitions,
                    (unsigned long long)c.first_partitions);
        std::printf("transitive dependences: %llu origins searched, %llu fell back to the "
                    "conservative superset\n",
                    (unsigned long long)result.transitive_origins,
                    (unsigned long long)result.transitive_fallbacks);
    } catch (const std::exception& e) {
        std::cerr << "analysis_benchmark: " << e.what() << "\n";
        return 2;
    }
    if (!generated.empty()) std::filesystem::remove(generated);
    return 0;
}
