// Parsing a sub-command's arguments with Boost.Program_options: the visible options plus one
// positional argument; parse errors become UsageError (exit code 2).
#pragma once

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>

#include "commands.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/report_model.hpp"

namespace firstrace::cli {

inline boost::program_options::variables_map
parse_command_line(const Arguments& args,
                   const boost::program_options::options_description& visible,
                   const char* positional_name) {
    namespace po = boost::program_options;
    po::options_description hidden;
    hidden.add_options()(positional_name, po::value<std::string>());
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add(positional_name, 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return vm;
}

// The text report options shared by `analyze` and `report`: --max-sites, --colour.
inline TextReportOptions text_report_options(const boost::program_options::variables_map& vm,
                                             bool to_stdout = true) {
    TextReportOptions options;
    if (vm.count("max-sites")) options.max_sites = vm["max-sites"].as<std::size_t>();
    const std::string colour = vm.count("colour") ? vm["colour"].as<std::string>() : "auto";
    if (colour == "always")
        options.colour = true;
    else if (colour == "auto")
        options.colour = to_stdout && isatty(fileno(stdout)) != 0;
    else if (colour != "never")
        throw UsageError("unknown --colour '" + colour + "' (auto, always or never)");
    return options;
}

} // namespace firstrace::cli
