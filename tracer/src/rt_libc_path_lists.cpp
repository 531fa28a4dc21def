// Calls that return a list of names in blocks they allocate (POSIX XSH scandir, glob): the
// program's memory they write is the list's anchor (*namelist, the glob_t), the array of
// pointers and every entry, writes at the caller's program counter, and the blocks are the
// program's allocations (the frees inside globfree too: tls_library_call_pc, rt_stdio.hpp).
// Two threads filling one glob_t race, and so does a thread that reads a list another thread
// is still making without an ordering (ThreadSanitizer records the same ranges).
//
//   scandir, scandir64   read the path; write *namelist, the array of n pointers and each
//                        entry (d_reclen bytes); the filter and comparison are the program's
//                        code, traced where it is instrumented
//   glob, glob64         read the pattern; write the glob_t and, when it matched, the paths
//                        (gl_offs + gl_pathc + 1 pointers) and each path's text
//   globfree, globfree64 read and write the glob_t; its frees are the program's
// Only from threads the runtime already knows, never from inside the runtime.
#include <dirent.h>
#include <glob.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(scandir);
FRT_DECLARE_REAL(scandir64);
FRT_DECLARE_REAL(glob);
FRT_DECLARE_REAL(glob64);
FRT_DECLARE_REAL(globfree);
FRT_DECLARE_REAL(globfree64);

// scandir made at pc returned r entries into *list (after reading path).
template <class Entry, class Real> int scanned(u64 pc, const char* path, Entry*** list, Real real) {
    if (LibraryCall c(pc); c) c.text(path, false);
    int r;
    {
        ProgramAllocations program(pc);
        r = real();
    }
    if (LibraryCall c(pc); c && r >= 0) {
        c.bytes(list, sizeof *list, true);
        c.bytes(*list, static_cast<u64>(r) * sizeof(Entry*), true); // the array of entry pointers
        for (int i = 0; i < r; ++i)
            c.bytes((*list)[i], (*list)[i]->d_reclen, true);
    }
    return r;
}

// glob made at pc with pattern stored its result into *g (r: 0, or an error with no match).
template <class Glob, class Real> int globbed(u64 pc, const char* pattern, Glob* g, Real real) {
    if (LibraryCall c(pc); c) c.text(pattern, false);
    int r;
    {
        ProgramAllocations program(pc);
        r = real();
    }
    if (LibraryCall c(pc); c) {
        c.bytes(g, sizeof *g, true);
        if (r == 0 && g->gl_pathv != nullptr) {
            c.bytes(g->gl_pathv, (g->gl_offs + g->gl_pathc + 1) * sizeof *g->gl_pathv, true);
            for (size_t i = 0; i < g->gl_pathc; ++i)
                c.text(g->gl_pathv[g->gl_offs + i], true);
        }
    }
    return r;
}

// globfree made at pc: the glob_t read and written, the frees the program's.
template <class Glob, class Real> void glob_freed(u64 pc, Glob* g, Real real) {
    if (LibraryCall c(pc); c) c.bytes(g, sizeof *g, false);
    {
        ProgramAllocations program(pc);
        real();
    }
    if (LibraryCall c(pc); c) c.bytes(g, sizeof *g, true);
}

} // namespace

using dirent_filter = int (*)(const struct dirent*);
using dirent_order = int (*)(const struct dirent**, const struct dirent**);
using dirent64_filter = int (*)(const struct dirent64*);
using dirent64_order = int (*)(const struct dirent64**, const struct dirent64**);
using glob_errors = int (*)(const char*, int);

FRT_EXPORT int scandir(const char* path, struct dirent*** list, dirent_filter filter,
                       dirent_order order) {
    return scanned(FRT_CALLER(), path, list,
                   [&] { return REAL(scandir)(path, list, filter, order); });
}
FRT_EXPORT int scandir64(const char* path, struct dirent64*** list, dirent64_filter filter,
                         dirent64_order order) {
    return scanned(FRT_CALLER(), path, list,
                   [&] { return REAL(scandir64)(path, list, filter, order); });
}
FRT_EXPORT int glob(const char* pattern, int flags, glob_errors errors, glob_t* g) {
    return globbed(FRT_CALLER(), pattern, g, [&] { return REAL(glob)(pattern, flags, errors, g); });
}
FRT_EXPORT int glob64(const char* pattern, int flags, glob_errors errors, glob64_t* g) {
    return globbed(FRT_CALLER(), pattern, g,
                   [&] { return REAL(glob64)(pattern, flags, errors, g); });
}
FRT_EXPORT void globfree(glob_t* g) {
    glob_freed(FRT_CALLER(), g, [&] { REAL(globfree)(g); });
}
FRT_EXPORT void globfree64(glob64_t* g) {
    glob_freed(FRT_CALLER(), g, [&] { REAL(globfree64)(g); });
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(scandir)
FRT_INTERCEPTOR_ALIAS(scandir64)
FRT_INTERCEPTOR_ALIAS(glob)
FRT_INTERCEPTOR_ALIAS(glob64)
FRT_INTERCEPTOR_ALIAS(globfree)
FRT_INTERCEPTOR_ALIAS(globfree64)
