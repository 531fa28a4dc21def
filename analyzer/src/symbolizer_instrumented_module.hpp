// Whether a loaded module was compiled with ThreadSanitizer instrumentation, for the analyzer's
// model of TSan's ignore_noninstrumented_modules=1 (race_suppression.cpp).
#pragma once

#include <string>

namespace firstrace {

// True when the ELF file at `path` calls into a ThreadSanitizer runtime: its dynamic symbol
// table has an undefined, not weak, `__tsan_*` symbol (instrumented code calls __tsan_init,
// __tsan_func_entry, __tsan_read4, ...; the runtime itself defines them). A file that cannot be
// read counts as instrumented: nothing is ignored on a guess.
bool tsan_instrumented_module(const std::string& path);

} // namespace firstrace
