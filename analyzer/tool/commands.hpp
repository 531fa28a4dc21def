// Sub-commands of the `firstrace` command line. Each returns the process exit code; errors
// escape as exceptions and are mapped to one line and exit code 2 by main().
#pragma once

#include <string>
#include <vector>

namespace firstrace::cli {

using Arguments = std::vector<std::string>; // the arguments after the sub-command name

int analyze_command(const Arguments& args);
int record_command(const Arguments& args);
int report_command(const Arguments& args);

} // namespace firstrace::cli
