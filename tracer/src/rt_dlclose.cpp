// Libraries unloaded while the program runs: dlclose, interposed.
//
// Reports name an access by its module and source line from the `module` lines of the trace
// metadata, written at start and at exit. A library that the program dlopens and dlcloses in
// between is in neither list: its accesses and sync calls are traced but read as "library code,
// ??" at an address nobody maps. So dlclose writes the closing library's `module` line first,
// while it is still mapped. (A later library mapped at the same addresses then has two
// candidate lines: the reader takes the module listed last, which is the right one for events
// after the reload only.)
#include <dlfcn.h>
#include <link.h>

#include "rt_loader_lock.hpp"
#include "rt_metadata.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(dlclose);
}

FRT_EXPORT int dlclose(void* handle) {
    const u64 pc = FRT_CALLER();
    // <dlfcn.h> declares the handle nonnull, but a program may pass null (dlclose fails): keep
    // the test from being folded away
    void* checked = handle;
    __asm__("" : "+r"(checked));
    if (InterceptorScope scope(enter_call(pc)); scope && checked != nullptr) {
        struct link_map* map = nullptr;
        if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr)
            write_module_at(static_cast<u64>(map->l_addr));
    }
    auto real = REAL(dlclose);
    if (real == nullptr) return -1;
    LoaderClose closing; // the loader's frees take the loader's lock (rt_loader_lock.cpp)
    return real(handle);
}

FRT_INTERCEPTOR_ALIAS(dlclose)
