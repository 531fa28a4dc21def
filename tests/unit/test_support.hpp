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

} // namespace firstrace::test
