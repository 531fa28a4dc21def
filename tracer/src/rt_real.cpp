// The real-function table (rt_real.hpp): the entries every interceptor file put into the
// `frt_reals` section, bounded by the linker's __start_/__stop_ symbols.
#include "rt_real.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstddef>

extern "C" {
extern frt::RealFunction __start_frt_reals[] __attribute__((visibility("hidden")));
extern frt::RealFunction __stop_frt_reals[] __attribute__((visibility("hidden")));
}

namespace frt {

namespace {
// Set while this thread is inside dlsym: an interceptor that dlsym reaches must not call it
// again (heaptrack's RecursionGuard plays the same part around its own lookups).
__thread bool tls_resolving __attribute__((tls_model("initial-exec"))) = false;

// The path of the index-th loaded object other than the main program (false past the last).
bool loaded_object(int index, char* path, std::size_t size) {
    struct Want {
        int index;
        char* path;
        std::size_t size;
        bool found;
    } want{index, path, size, false};
    dl_iterate_phdr(
        [](struct dl_phdr_info* info, std::size_t, void* arg) -> int {
            auto* w = static_cast<Want*>(arg);
            if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0; // main
            if (w->index-- > 0) return 0;
            std::size_t n = 0;
            for (; info->dlpi_name[n] != '\0' && n + 1 < w->size; ++n)
                w->path[n] = info->dlpi_name[n];
            w->path[n] = '\0';
            w->found = info->dlpi_name[n] == '\0';
            if (!w->found) w->path[0] = '\0'; // too long: skipped
            return 1;
        },
        &want);
    return want.index < 0; // the object exists (its path empty when too long)
}

// f's definition in a library outside the runtime's lookup scope. RTLD_NEXT sees the global
// scope only; a library loaded with RTLD_LOCAL (a C program's C++ plugin brings libstdc++ with
// it, whose operator new and __cxa_* the runtime defines for the whole process: the plugin's
// calls bind to them) is found in its own scope: each loaded object's, breadth first from the
// object, skipping a definition inside the runtime (an instrumented object depends on it).
// Only for a call whose real function is still missing: it costs a walk of the loaded objects.
void* lookup_in_local_scopes(const char* name) {
    Dl_info self{};
    if (dladdr(reinterpret_cast<void*>(&lookup_in_local_scopes), &self) == 0) return nullptr;
    char path[512];
    for (int i = 0; loaded_object(i, path, sizeof path); ++i) {
        if (path[0] == '\0') continue;
        void* handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
        if (handle == nullptr) continue;
        void* p = dlsym(handle, name);
        Dl_info at{};
        const bool ours = p != nullptr && dladdr(p, &at) != 0 && at.dli_fbase == self.dli_fbase;
        dlclose(handle); // the NOLOAD open counted a reference
        if (p != nullptr && !ours) return p;
    }
    return nullptr;
}

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
    if (p == nullptr) {
        p = lookup_in_local_scopes(f.name);
        dlerror();
    }
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
