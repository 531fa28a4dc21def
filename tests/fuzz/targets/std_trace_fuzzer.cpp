// libFuzzer target: the STD text trace reader (read_std_trace) on one file.
#include <cstddef>
#include <cstdint>

#include "firstrace/trace_loader.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = firstrace::fuzz::scratch_file("trace.std", data, size);
    try {
        const firstrace::Trace trace = firstrace::read_std_trace(path);
    } catch (const firstrace::InputError& error) {
        firstrace::fuzz::check_input_error(error, path);
    }
    return 0;
}
