// Command-line options of the STD trace generator, shared by the generator and the benchmark.
#pragma once

#include <boost/program_options.hpp>

#include "std_trace_generator.hpp"

namespace firstrace::bench {

inline void add_generator_options(boost::program_options::options_description& desc,
                                  GeneratorParams& p) {
    namespace po = boost::program_options;
    desc.add_options()("threads", po::value(&p.threads)->default_value(p.threads),
                       "threads besides the main thread")(
        "locks", po::value(&p.locks)->default_value(p.locks), "number of locks")(
        "variables", po::value(&p.variables)->default_value(p.variables),
        "number of shared variables")("operations",
                                      po::value(&p.operations)->default_value(p.operations),
                                      "total operations (lines)")(
        "write-ratio", po::value(&p.write_ratio)->default_value(p.write_ratio),
        "fraction of accesses that write")("sync-ratio",
                                           po::value(&p.sync_ratio)->default_value(p.sync_ratio),
                                           "fraction of operations that are acq/rel")(
        "protected-ratio", po::value(&p.protected_ratio)->default_value(p.protected_ratio),
        "fraction of accesses in critical sections that touch the lock's own variable (conflict "
        "density)")("locations", po::value(&p.locations)->default_value(p.locations),
                    "distinct source locations")("seed", po::value(&p.seed)->default_value(p.seed),
                                                 "random seed");
}

} // namespace firstrace::bench
