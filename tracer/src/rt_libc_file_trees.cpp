// File hierarchy walks with <fts.h> (glibc's, 4.4BSD's interface): the FTS stream keeps the walk's
// state and the entries it returns (fts_read's FTSENT, its name and path) live in the stream's
// buffers until the next call on the stream overwrites or frees them, as readdir's entry lives in
// its DIR (rt_libc_shared_state.cpp). fts is not thread-safe on one stream: two threads reading one
// stream without the program's lock race, and so does a thread's use of an entry with another
// thread's next fts_read (ThreadSanitizer records the stream and the entries the same way).
//
//   fts_open       reads the path array and each path; the stream and everything glibc allocates
//                  for it are the program's allocations; writes the FTS
//   fts_read       writes the FTS and the entry returned (the FTSENT with its name, and its path)
//   fts_children   writes the FTS and every entry of the list returned
//   fts_set        writes the entry's instruction
//   fts_close      writes the FTS; its frees are the program's
// and their fts64_ forms (the ones <fts.h> redirects to with _FILE_OFFSET_BITS=64). Only from
// threads the runtime already knows, never from inside the runtime.
#include <fts.h>
#include <stddef.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(fts_open);
FRT_DECLARE_REAL(fts_read);
FRT_DECLARE_REAL(fts_children);
FRT_DECLARE_REAL(fts_set);
FRT_DECLARE_REAL(fts_close);
FRT_DECLARE_REAL(fts64_open);
FRT_DECLARE_REAL(fts64_read);
FRT_DECLARE_REAL(fts64_children);
FRT_DECLARE_REAL(fts64_set);
FRT_DECLARE_REAL(fts64_close);

using Compare = int (*)(const FTSENT**, const FTSENT**);
using Compare64 = int (*)(const FTSENT64**, const FTSENT64**);

// An entry of stream written by the call c: the FTSENT up to its name, the name, the path.
template <class Entry> void entry_written(LibraryCall& c, const Entry* e) {
    c.bytes(e, offsetof(Entry, fts_name) + e->fts_namelen + 1, true);
    if (e->fts_path != nullptr) c.bytes(e->fts_path, e->fts_pathlen + 1u, true);
}

template <class Stream, class Real> Stream* opened(u64 pc, char* const* paths, Real real) {
    if (LibraryCall c(pc); c && paths != nullptr) {
        u64 n = 0;
        for (; paths[n] != nullptr; ++n)
            c.text(paths[n], false);
        c.bytes(paths, (n + 1) * sizeof *paths, false);
    }
    Stream* s;
    {
        ProgramAllocations program(pc);
        s = real();
    }
    if (s != nullptr)
        if (LibraryCall c(pc); c) c.bytes(s, sizeof *s, true);
    return s;
}

template <class Entry, class Stream, class Real> Entry* read_from(u64 pc, Stream* s, Real real) {
    Entry* e;
    {
        ProgramAllocations program(pc);
        e = real();
    }
    if (LibraryCall c(pc); c && s != nullptr) {
        c.bytes(s, sizeof *s, true);
        if (e != nullptr) entry_written(c, e);
    }
    return e;
}

template <class Entry, class Stream, class Real> Entry* children_of(u64 pc, Stream* s, Real real) {
    Entry* list;
    {
        ProgramAllocations program(pc);
        list = real();
    }
    if (LibraryCall c(pc); c && s != nullptr) {
        c.bytes(s, sizeof *s, true);
        for (const Entry* e = list; e != nullptr; e = e->fts_link)
            entry_written(c, e);
    }
    return list;
}

template <class Stream, class Real> int closed(u64 pc, Stream* s, Real real) {
    if (LibraryCall c(pc); c && s != nullptr) c.bytes(s, sizeof *s, true);
    ProgramAllocations program(pc);
    return real();
}

} // namespace

FRT_EXPORT FTS* fts_open(char* const* paths, int options, Compare compare) {
    return opened<FTS>(FRT_CALLER(), paths,
                       [&] { return REAL(fts_open)(paths, options, compare); });
}
FRT_EXPORT FTSENT* fts_read(FTS* s) {
    return read_from<FTSENT>(FRT_CALLER(), s, [&] { return REAL(fts_read)(s); });
}
FRT_EXPORT FTSENT* fts_children(FTS* s, int options) {
    return children_of<FTSENT>(FRT_CALLER(), s, [&] { return REAL(fts_children)(s, options); });
}
FRT_EXPORT int fts_set(FTS* s, FTSENT* e, int instruction) noexcept {
    if (LibraryCall c(FRT_CALLER()); c && e != nullptr)
        c.bytes(&e->fts_instr, sizeof e->fts_instr, true);
    return REAL(fts_set)(s, e, instruction);
}
FRT_EXPORT int fts_close(FTS* s) {
    return closed(FRT_CALLER(), s, [&] { return REAL(fts_close)(s); });
}

FRT_EXPORT FTS64* fts64_open(char* const* paths, int options, Compare64 compare) {
    return opened<FTS64>(FRT_CALLER(), paths,
                         [&] { return REAL(fts64_open)(paths, options, compare); });
}
FRT_EXPORT FTSENT64* fts64_read(FTS64* s) {
    return read_from<FTSENT64>(FRT_CALLER(), s, [&] { return REAL(fts64_read)(s); });
}
FRT_EXPORT FTSENT64* fts64_children(FTS64* s, int options) {
    return children_of<FTSENT64>(FRT_CALLER(), s, [&] { return REAL(fts64_children)(s, options); });
}
FRT_EXPORT int fts64_set(FTS64* s, FTSENT64* e, int instruction) noexcept {
    if (LibraryCall c(FRT_CALLER()); c && e != nullptr)
        c.bytes(&e->fts_instr, sizeof e->fts_instr, true);
    return REAL(fts64_set)(s, e, instruction);
}
FRT_EXPORT int fts64_close(FTS64* s) {
    return closed(FRT_CALLER(), s, [&] { return REAL(fts64_close)(s); });
}

FRT_INTERCEPTOR_ALIAS(fts_open)
FRT_INTERCEPTOR_ALIAS(fts_read)
FRT_INTERCEPTOR_ALIAS(fts_children)
FRT_INTERCEPTOR_ALIAS(fts_set)
FRT_INTERCEPTOR_ALIAS(fts_close)
FRT_INTERCEPTOR_ALIAS(fts64_open)
FRT_INTERCEPTOR_ALIAS(fts64_read)
FRT_INTERCEPTOR_ALIAS(fts64_children)
FRT_INTERCEPTOR_ALIAS(fts64_set)
FRT_INTERCEPTOR_ALIAS(fts64_close)
