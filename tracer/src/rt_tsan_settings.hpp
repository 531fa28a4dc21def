// The program's ThreadSanitizer run-time settings and hooks (rt_tsan_settings.cpp): what a TSan
// user configured is kept in the trace for the analyzer, and the program's own initialisation
// and finalisation hooks are called when TSan calls them.
#pragma once

namespace frt {

// Once, when the runtime is initialised: reads TSAN_OPTIONS, the program's
// __tsan_default_options() and __tsan_default_suppressions(), and the file suppressions= names
// (without the program's malloc), and writes them into the metadata file.
void capture_tsan_settings();
// The same lines again into a fork child's own metadata file.
void write_tsan_settings();
// The program's __tsan_on_initialize(), if it defines one (TSan calls it at the end of its
// initialisation).
void call_tsan_on_initialize();
// The program's __tsan_on_finalize(0), if it defines one, once: TSan calls it from its exit
// handler, after the program's own; here the first of the runtime's exit handler and its
// destructor (which the loader runs first) calls it, before the trace ends.
void call_tsan_on_finalize();

} // namespace frt
