// The program's global locale and the calls that change or read it (C11 7.11.1.1p5: a call to
// setlocale may introduce a data race with other calls to setlocale, or with calls to functions
// affected by the current locale; XSH 2.9.1 lists setlocale, localeconv and nl_langinfo among
// the functions that need not be thread-safe). glibc keeps the locale in its own statics: a byte
// of the runtime, `firstrace_locale_state`, stands for it in reports (as strtok's position,
// rt_libc_shared_state.cpp).
//
//   setlocale       reads the locale name given; a change (a name given, a success) writes the
//                   locale state and the name string returned (glibc frees the one a former call
//                   returned), a query (null name) reads both
//   localeconv      reads the locale state; writes the struct lconv it returns (one static,
//                   refilled by every call: C11 7.11.2.1p8, it may be overwritten by a later
//                   call)
//   nl_langinfo     reads the locale state (the string it returns points into the locale's
//                   data, unchanged until the locale changes: reading it is not recorded)
//
// Two threads changing the locale race, and so do a change and another thread's query; queries
// alone do not (glibc's answer is the same data). uselocale/newlocale and the _l functions use
// locale objects, not the global locale (rt_locale_refcount.cpp). Only from threads the runtime
// already knows, never from inside the runtime.
#include <langinfo.h>
#include <locale.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

// glibc's global locale (_nl_global_locale and the names setlocale keeps): this byte stands for it.
extern "C" __attribute__((visibility("default"))) unsigned char firstrace_locale_state;
unsigned char firstrace_locale_state;

namespace {

FRT_DECLARE_REAL(setlocale);
FRT_DECLARE_REAL(localeconv);
FRT_DECLARE_REAL(nl_langinfo);

} // namespace

FRT_EXPORT char* setlocale(int category, const char* locale) {
    const u64 pc = FRT_CALLER();
    if (locale != nullptr)
        if (LibraryCall c(pc); c) c.text(locale, false);
    char* r = REAL(setlocale)(category, locale);
    if (r != nullptr || locale == nullptr)
        if (LibraryCall c(pc); c) {
            const bool change = locale != nullptr;
            c.bytes(&firstrace_locale_state, 1, change);
            c.text(r, change);
        }
    return r;
}

FRT_EXPORT struct lconv* localeconv() {
    const u64 pc = FRT_CALLER();
    struct lconv* r = REAL(localeconv)();
    if (LibraryCall c(pc); c) {
        c.bytes(&firstrace_locale_state, 1, false);
        c.bytes(r, sizeof *r, true);
    }
    return r;
}

FRT_EXPORT char* nl_langinfo(nl_item item) {
    const u64 pc = FRT_CALLER();
    char* r = REAL(nl_langinfo)(item);
    if (LibraryCall c(pc); c) c.bytes(&firstrace_locale_state, 1, false);
    return r;
}

FRT_INTERCEPTOR_ALIAS(setlocale)
FRT_INTERCEPTOR_ALIAS(localeconv)
FRT_INTERCEPTOR_ALIAS(nl_langinfo)
