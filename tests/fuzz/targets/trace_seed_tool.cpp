// Makes a seed of the binary trace fuzzer from a recorded trace directory (see
// trace_directory_input.hpp): `firstrace_trace_seed DIR > SEED`. Checks that the seed writes
// the same files back (a stream whose records contain "\n@@" cannot be a seed).
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>

#include "trace_directory_input.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: firstrace_trace_seed TRACE_DIRECTORY > SEED\n";
        return 2;
    }
    try {
        const std::string seed = firstrace::fuzz::trace_directory_input(argv[1]);
        const fs::path check =
            fs::temp_directory_path() / ("firstrace-seed-check." + std::to_string(::getpid()));
        fs::remove_all(check);
        fs::create_directory(check);
        firstrace::fuzz::write_trace_directory(seed, check);
        const std::string again = firstrace::fuzz::trace_directory_input(check);
        fs::remove_all(check);
        if (again != seed) {
            std::cerr << "firstrace_trace_seed: " << argv[1]
                      << ": does not survive the round trip (a stream holds \"\\n@@\")\n";
            return 1;
        }
        std::cout << seed;
    } catch (const std::exception& e) {
        std::cerr << "firstrace_trace_seed: " << argv[1] << ": " << e.what() << "\n";
        return 2;
    }
    return 0;
}
