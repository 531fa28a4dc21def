// The memory a printf-family call reads and writes through its arguments (rt_printf_args.cpp):
// the format, the strings of its %s (%ls, %S) conversions and the integers its %n conversions
// store into.
#pragma once

#include <stdarg.h>
#include <wchar.h>

#include "rt_record.hpp"

namespace frt {

// Records, for the program's call made at pc, the read of the format and of each %s argument
// and the write of each %n argument. ap is a copy of the call's variable arguments (walked and
// left at an unspecified position). Enters the runtime itself (nothing for the runtime's own
// calls). Positional arguments (%1$s, *2$) are taken by their positions.
void printf_arguments(u64 pc, const char* format, va_list ap);
// The same for the wide-character forms (fwprintf & co.), whose format is a wide string.
void wprintf_arguments(u64 pc, const wchar_t* format, va_list ap);

} // namespace frt
