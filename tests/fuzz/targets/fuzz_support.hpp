// What every fuzz target of the readers checks beyond memory safety and undefined behaviour
// (which ASan/UBSan report): a reader either returns or throws an InputError whose message is
// one line naming the input (issue 13); any other exception escapes to libFuzzer as a crash.
// Inputs are written as real files into one private directory per fuzzing process, because
// the readers open paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "firstrace/errors.hpp"

namespace firstrace::fuzz {

// The private directory of this fuzzing process, removed when it exits normally.
inline const std::filesystem::path& scratch_root() {
    struct Root {
        std::filesystem::path path;
        Root() {
            const char* tmp = std::getenv("TMPDIR");
            std::string pattern =
                std::string(tmp && *tmp ? tmp : "/tmp") + "/firstrace-fuzz.XXXXXX";
            if (mkdtemp(pattern.data()) == nullptr) std::abort();
            path = pattern;
        }
        ~Root() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const Root root;
    return root.path;
}

// `data` as file `name` of the private directory; returns its path.
inline std::string scratch_file(const char* name, const std::uint8_t* data, std::size_t size) {
    const std::string path = (scratch_root() / name).string();
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

// A fresh empty directory in the private directory (removed and created again on every call).
inline std::filesystem::path scratch_directory() {
    const std::filesystem::path dir = scratch_root() / "input";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directory(dir);
    return dir;
}

// Aborts (a finding) unless `error`'s message is one line and begins with `input`'s path.
inline void check_input_error(const InputError& error, const std::string& input) {
    const std::string_view message = error.what();
    const bool names_input = message.substr(0, input.size()) == input;
    const bool one_line = message.find_first_of("\n\r") == std::string_view::npos;
    if (names_input && one_line) return;
    std::fprintf(stderr, "finding: %s error message: %s\n",
                 names_input ? "multi-line" : "file-less", error.what());
    std::abort();
}

} // namespace firstrace::fuzz
