// POSIX regular expressions (XSH regcomp): the compiled pattern lives in the caller's regex_t.
//
//   regcomp    reads the pattern, writes the regex_t (glibc allocates the automaton inside:
//              the program's allocations, tls_library_call_pc).
//   regexec    reads the regex_t and the string (up to its terminator; with REG_STARTEND from
//              pmatch[0]'s start to its end), writes the nmatch entries of pmatch when it
//              matched (not with REG_NOSUB). glibc serializes matches on one regex_t with a
//              lock inside it, and POSIX makes regexec thread-safe: matching one compiled
//              pattern from several threads is no race (reads only), compiling or freeing it
//              while another thread matches is.
//   regfree    writes the regex_t (and frees what regcomp allocated: the program's frees).
//   regerror   writes the message it stores into the caller's buffer.
// Only from threads the runtime already knows, never from inside the runtime.
#include <regex.h>

#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(regcomp);
FRT_DECLARE_REAL(regexec);
FRT_DECLARE_REAL(regfree);
FRT_DECLARE_REAL(regerror);
} // namespace

FRT_EXPORT int regcomp(regex_t* preg, const char* pattern, int flags) {
    const u64 pc = FRT_CALLER();
    if (LibraryCall c(pc); c) c.text(pattern, false);
    int r;
    {
        ProgramAllocations program(pc);
        r = REAL(regcomp)(preg, pattern, flags);
    }
    if (LibraryCall c(pc); c) c.bytes(preg, sizeof *preg, true);
    return r;
}
FRT_EXPORT int regexec(const regex_t* preg, const char* string, size_t nmatch, regmatch_t pmatch[],
                       int eflags) {
    const u64 pc = FRT_CALLER();
    if (LibraryCall c(pc); c) {
        c.bytes(preg, sizeof *preg, false);
        if ((eflags & REG_STARTEND) != 0 && pmatch != nullptr) {
            c.bytes(pmatch, sizeof *pmatch, false);
            c.bytes(string + pmatch[0].rm_so, static_cast<u64>(pmatch[0].rm_eo - pmatch[0].rm_so),
                    false);
        } else {
            c.text(string, false);
        }
    }
    int r;
    {
        ProgramAllocations program(pc);
        r = REAL(regexec)(preg, string, nmatch, pmatch, eflags);
    }
    if (r == 0 && nmatch != 0 && preg->no_sub == 0)
        if (LibraryCall c(pc); c) c.bytes(pmatch, nmatch * sizeof *pmatch, true);
    return r;
}
FRT_EXPORT void regfree(regex_t* preg) {
    const u64 pc = FRT_CALLER();
    if (LibraryCall c(pc); c) c.bytes(preg, sizeof *preg, true);
    ProgramAllocations program(pc);
    REAL(regfree)(preg);
}
FRT_EXPORT size_t regerror(int error, const regex_t* preg, char* buf, size_t size) {
    const size_t r = REAL(regerror)(error, preg, buf, size);
    if (size != 0 && buf != nullptr)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(buf, r < size ? r : size, true);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(regcomp)
FRT_INTERCEPTOR_ALIAS(regexec)
FRT_INTERCEPTOR_ALIAS(regfree)
FRT_INTERCEPTOR_ALIAS(regerror)
