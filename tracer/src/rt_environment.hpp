// The runtime's own settings from the environment (FIRSTRACE_OUTPUT, FIRSTRACE_DISABLE, ...),
// read when the runtime initialises. That can happen before the C library has set `environ`:
// code in the executable's preinit_array (clang's static UBSan runtime, with
// `-fsanitize=thread,undefined`) calls an intercepted function before libc's own initialiser
// runs, and getenv() then finds nothing. /proc/self/environ is the kernel's copy of the initial
// environment, which is what such settings are.
#pragma once

namespace frt {

// The value of `name` in the environment, or null. Not thread-safe (called while initialising);
// the returned string stays valid until the next call.
const char* runtime_getenv(const char* name);

} // namespace frt
