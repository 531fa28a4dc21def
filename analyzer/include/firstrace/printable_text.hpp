// Text from the program or the trace (paths, functions, thread and variable names, error
// messages that quote them) written to a terminal: control characters (C0, DEL, C1) and bytes
// that are not UTF-8 are shown as \xNN, so that an escape sequence in a file name never runs
// and an error stays one line (issue 13). The escaping of the text report and of every error.
#pragma once

#include <string>
#include <string_view>

namespace firstrace {

std::string printable_text(std::string_view text);

} // namespace firstrace
