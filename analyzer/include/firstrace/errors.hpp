// Exceptions of the analyzer library. Each carries the context a user needs (file, line or
// offset); the command line maps them to one line on stderr and exit code 2.
// Messages are one line without control characters whoever shows them (the command line, the
// GUI's message boxes): what they quote (a file name, a line of the trace, SQLite's verdict)
// goes through printable_text (issue 13; the results database fuzzer found SQLite's
// multi-line "malformed database schema" text).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "firstrace/printable_text.hpp"

namespace firstrace {

// Malformed or unreadable input: a trace, a database, a suppressions file.
class InputError : public std::runtime_error {
  public:
    InputError(const std::string& file, std::uint64_t line, const std::string& what)
        : std::runtime_error(format(file, line, what)), file_(file), line_(line) {}
    const std::string& file() const { return file_; }
    std::uint64_t line() const { return line_; } // 0 when not line-oriented

  private:
    static std::string format(const std::string& file, std::uint64_t line,
                              const std::string& what) {
        return printable_text(line == 0 ? file + ": " + what
                                        : file + ":" + std::to_string(line) + ": " + what);
    }
    std::string file_;
    std::uint64_t line_;
};

// Misuse of the tool (bad option combination and the like).
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

} // namespace firstrace
