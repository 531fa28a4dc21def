// Text from the program or the trace (paths, functions, thread and variable names, error
// messages that quote them) written to a terminal: control characters are shown as \xNN, so
// that an escape sequence in a file name never runs and an error stays one line (issue 13).
#pragma once

#include <string>
#include <string_view>

namespace firstrace {

std::string printable_text(std::string_view text);

} // namespace firstrace
