// `firstrace COMMAND ...`: dispatch to the sub-commands; map errors to one line + exit code.
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "commands.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/printable_text.hpp"
#include "input_in_progress.hpp"

namespace {

struct Command {
    const char* name;
    int (*run)(const firstrace::cli::Arguments&);
    const char* summary;
};

const Command kCommands[] = {
    {"record", firstrace::cli::record_command,
     "run a program built with firstrace-cc, writing a trace"},
    {"analyze", firstrace::cli::analyze_command, "validate and order the races of a trace"},
    {"report", firstrace::cli::report_command,
     "print a results database as text, JSON, SARIF, ..."},
};

// Errors are one line on a terminal: control characters that came from the input (a file name
// with a newline or an escape sequence, SQLite's multi-line verdicts) are written as \xNN.
std::string one_line(const std::string& message) {
    return firstrace::printable_text(message);
}

void print_usage(std::ostream& out) {
    out << "firstrace " FIRSTRACE_VERSION " - post-mortem race validation and ordering\n\n"
           "usage: firstrace COMMAND [OPTIONS]\n\ncommands:\n";
    for (const auto& c : kCommands)
        out << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
    out << "\n`firstrace COMMAND --help` explains each command.\n";
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(std::cerr);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(std::cout);
        return 0;
    }
    if (name == "--version") {
        std::cout << "firstrace " FIRSTRACE_VERSION "\n";
        return 0;
    }
    for (const auto& c : kCommands) {
        if (name != c.name) continue;
        firstrace::cli::Arguments args(argv + 2, argv + argc);
        try {
            return c.run(args);
        } catch (const std::bad_alloc&) {
            // What the command had allocated is released by now: the message can be made.
            const std::string& input = firstrace::cli::InputInProgress::current();
            std::cerr << "firstrace " << name << ": "
                      << (input.empty() ? std::string() : one_line(input) + ": ")
                      << "out of memory (more than this process may allocate)\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "firstrace " << name << ": " << one_line(e.what()) << "\n";
            return 2;
        }
    }
    std::cerr << "firstrace: unknown command '" << one_line(name) << "' (try firstrace --help)\n";
    return 2;
}
