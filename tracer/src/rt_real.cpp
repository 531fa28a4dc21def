// The real-function table (rt_real.hpp): the entries every interceptor file put into the
// `frt_reals` section, bounded by the linker's __start_/__stop_ symbols.
#include "rt_real.hpp"

#include <dlfcn.h>

extern "C" {
extern frt::RealFunction __start_frt_reals[] __attribute__((visibility("hidden")));
extern frt::RealFunction __stop_frt_reals[] __attribute__((visibility("hidden")));
}

namespace frt {

namespace {
// Set while this thread is inside dlsym: an interceptor that dlsym reaches must not call it
// again (heaptrack's RecursionGuard plays the same part around its own lookups).
__thread bool tls_resolving __attribute__((tls_model("initial-exec"))) = false;

// A failed lookup (a versioned symbol that glibc does not have, the symbols of a library the
// program does not use, like libomp's) leaves no pending error for the program's own dlerror().
void* lookup(const RealFunction& f) {
    void* p = f.version != nullptr ? dlvsym(RTLD_NEXT, f.name, f.version) : nullptr;
    const bool failed = f.version != nullptr && p == nullptr;
    if (p == nullptr) p = dlsym(RTLD_NEXT, f.name);
    if (failed || p == nullptr) dlerror();
    return p;
}
} // namespace

void* resolve_real_function(RealFunction& f) {
    if (tls_resolving) return nullptr;
    tls_resolving = true;
    void* p = lookup(f);
    tls_resolving = false;
    if (p != nullptr) __atomic_store_n(&f.address, p, __ATOMIC_RELEASE);
    return p;
}

void resolve_real_functions() {
    if (tls_resolving) return;
    tls_resolving = true;
    for (RealFunction* f = __start_frt_reals; f != __stop_frt_reals; ++f) {
        if (f->name == nullptr || __atomic_load_n(&f->address, __ATOMIC_ACQUIRE) != nullptr)
            continue;
        // a symbol of a library not loaded yet stays null: its first call looks again
        if (void* p = lookup(*f)) __atomic_store_n(&f->address, p, __ATOMIC_RELEASE);
    }
    tls_resolving = false;
}

} // namespace frt
