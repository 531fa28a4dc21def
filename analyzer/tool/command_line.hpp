// The one option parser of every sub-command (Boost.Program_options): the visible options plus
// positional arguments, in one of three shapes. Parse errors become UsageError (exit code 2).
#pragma once

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/report_model.hpp"
#include "option_spellings.hpp"

namespace firstrace::cli {

enum class Positionals {
    One,     // at most one positional argument (a std::string)
    Many,    // any number (a std::vector<std::string>)
    Command, // a program and its arguments: everything from `--` or from the first argument
             // that is not an option (the program's own options are not ours)
};

struct ParsedCommandLine {
    boost::program_options::variables_map options;
    std::vector<std::string> command; // Positionals::Command: the program and its arguments
};

inline ParsedCommandLine
parse_command_line(const Arguments& args,
                   const boost::program_options::options_description& visible,
                   const char* positional_name, Positionals shape) {
    namespace po = boost::program_options;
    ParsedCommandLine parsed;
    Arguments own = args;
    if (shape == Positionals::Command) {
        own.clear();
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "--" || a.empty() || a[0] != '-') {
                parsed.command.assign(args.begin() + static_cast<long>(i) + (a == "--"),
                                      args.end());
                break;
            }
            own.push_back(a);
            // An option that takes a value in the next argument takes it with it.
            const auto eq = a.find('=');
            const std::string name = a.rfind("--", 0) == 0 ? a.substr(2, eq - 2)
                                     : a.size() == 2       ? a.substr(1)
                                                           : std::string();
            const po::option_description* d = nullptr;
            for (const auto& o : visible.options())
                if (!name.empty() && (o->long_name() == name ||
                                      (a.size() == 2 && o->format_name().rfind(a + " ", 0) == 0) ||
                                      o->format_name() == a))
                    d = o.get();
            if (d != nullptr && eq == std::string::npos && d->semantic()->max_tokens() > 0 &&
                i + 1 < args.size())
                own.push_back(args[++i]);
        }
    }
    po::options_description hidden;
    if (shape == Positionals::Many)
        hidden.add_options()(positional_name, po::value<std::vector<std::string>>());
    else if (shape == Positionals::One)
        hidden.add_options()(positional_name, po::value<std::string>());
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    if (shape != Positionals::Command)
        positional.add(positional_name, shape == Positionals::Many ? -1 : 1);
    try {
        po::store(po::command_line_parser(own).options(all).positional(positional).run(),
                  parsed.options);
        po::notify(parsed.options);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return parsed;
}

// A value that names a file must not be empty (`-o ''` would otherwise mean "no file").
inline std::string path_option(const boost::program_options::variables_map& vm, const char* name) {
    std::string path = vm[name].as<std::string>();
    if (path.empty()) throw UsageError(std::string("--") + name + " names no file (an empty path)");
    return path;
}

// The text report options shared by `analyze` and `report`: --max-sites, --colour.
inline TextReportOptions text_report_options(const boost::program_options::variables_map& vm,
                                             bool to_stdout = true) {
    TextReportOptions options;
    if (vm.count("max-sites")) options.max_sites = vm["max-sites"].as<std::size_t>();
    const Colour colour = parse_spelling(
        "colour", vm.count("colour") ? vm["colour"].as<std::string>() : "auto", kColours);
    options.colour = colour == Colour::Always ||
                     (colour == Colour::Auto && to_stdout && isatty(fileno(stdout)) != 0);
    return options;
}

} // namespace firstrace::cli
