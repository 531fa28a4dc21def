// The path-splitting calls of <libgen.h>, which may modify the path they are given (XSH dirname,
// basename; both are listed in XSH 2.9.1 among the calls that need not be thread-safe): the
// string is read whole and the terminator they store into it is a write at the caller's program
// counter. Two threads splitting one path, or a thread that reads a path another thread
// splits, race; on a path of its own each thread is alone.
//
//   dirname          reads the path; writes the terminator it stores over the last slash
//                    (glibc: a returned "." is a constant, the path is then unchanged)
//   __xpg_basename   (libgen.h's basename) reads the path; writes the terminator it stores
//                    over trailing slashes. string.h's GNU basename only reads: not recorded,
//                    glibc's is a plain string scan of its own.
// Only from threads the runtime already knows, never from inside the runtime.
#include <libgen.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(dirname);
FRT_DECLARE_REAL(__xpg_basename);

// A split of path made at pc by `real` (returning into path, or a constant): the path read
// whole before, the terminator stored after (when the path is shorter than it was).
template <class Real> char* split(u64 pc, char* path, Real real) {
    const u64 before = path != nullptr ? string_length(path) : 0;
    if (LibraryCall c(pc); c && path != nullptr) c.bytes(path, before + 1, false);
    char* r = real();
    if (path != nullptr) {
        const u64 after = string_length(path);
        if (after < before)
            if (LibraryCall c(pc); c) c.bytes(path + after, 1, true);
    }
    return r;
}

} // namespace

FRT_EXPORT char* dirname(char* path) {
    return split(FRT_CALLER(), path, [&] { return REAL(dirname)(path); });
}
FRT_EXPORT char* __xpg_basename(char* path) {
    return split(FRT_CALLER(), path, [&] { return REAL(__xpg_basename)(path); });
}

FRT_INTERCEPTOR_ALIAS(dirname)
FRT_INTERCEPTOR_ALIAS(__xpg_basename)
