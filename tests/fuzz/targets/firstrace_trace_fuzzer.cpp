// libFuzzer target: the binary trace reader (read_firstrace_trace) on a trace directory made
// from the input (metadata and stream files, see trace_directory_input.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "firstrace/trace_loader.hpp"
#include "fuzz_support.hpp"
#include "trace_directory_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path dir = firstrace::fuzz::scratch_directory();
    firstrace::fuzz::write_trace_directory(
        std::string_view(reinterpret_cast<const char*>(data), size), dir);
    try {
        const firstrace::Trace trace = firstrace::read_firstrace_trace(dir.string());
    } catch (const firstrace::InputError& error) {
        firstrace::fuzz::check_input_error(error, dir.string());
    }
    return 0;
}
