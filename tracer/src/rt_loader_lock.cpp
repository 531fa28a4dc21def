// The dynamic loader's lock: dl_iterate_phdr interposed, and the teardown of dlclose.
//
// glibc's loader keeps the list of loaded objects under a recursive lock (dl_load_write_lock):
// dl_iterate_phdr calls its callback for each object while holding it, and dlclose takes it to
// unlink the objects it unloads, then (still inside dlclose, after the unlinking) frees their
// loader data -- names, link maps -- through the program's free (rt_allocator.cpp: a write of
// each block). A callback that reads an object's name (dlpi_name) is therefore ordered before
// the free of that name by a dlclose in another thread, and the trace must say so, or the read
// and the free look like a race (compiler-rt's tsan/dl_iterate_phdr.cpp: ThreadSanitizer
// instead resets the name's shadow before each callback).
//
// Modelled as a mutex (kObjMutex at the address of g_loader_lock, a runtime object standing
// for the loader's lock), with every counter taken while the real lock orders them:
//   callback     Acquire before each call of the program's callback, Release after it: both
//                inside the real dl_iterate_phdr, which holds the lock around the callback.
//   dlclose      every free made by the loader's own code inside dlclose (names, link maps,
//                version and dependency lists of the unloaded objects) acquires the lock before
//                its write of the block, and releases it again (merged: an Acquire and a
//                Release with consecutive counters, as release_now(merge) does, so that a later
//                acquire is ordered after every earlier holder). The frees of the unloaded
//                objects' data come after their unlinking, under the real lock; the loader's
//                few frees before it (other objects' scopes) are not under it, and the merge
//                keeps such a section, which may overlap a callback, from cutting the chain of
//                releases. Frees made by the unloaded library's destructors and by libc's
//                dlclose wrapper are not the loader's and do not count.
// Not modelled: dlopen's linking of a new object into the list (nothing interposed runs at that
// point), so a thread that learns of a new library only through dl_iterate_phdr is not ordered
// after what the dlopening thread did before; ThreadSanitizer does not order it either.
// The runtime's own dl_iterate_phdr calls (module lists, tables) pass through untraced, as do
// calls made before the runtime is ready (its constructors).
#include "rt_loader_lock.hpp"

#include <link.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace frt {
__thread bool tls_in_dlclose __attribute__((tls_model("initial-exec"))) = false;
}

namespace {
FRT_DECLARE_REAL(dl_iterate_phdr);

// The object standing for the loader's lock in the trace.
char g_loader_lock;

// The loader's (ld.so's) executable segment, found at the first dlclose.
std::atomic<u64> g_loader_lo{0}, g_loader_hi{0};
std::atomic<bool> g_loader_located{false};

int find_loader(struct dl_phdr_info* info, size_t, void* data) {
    const u64 inside = reinterpret_cast<u64>(data);
    bool contains = false;
    u64 lo = 0, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        const u64 a = info->dlpi_addr + ph.p_vaddr;
        if (inside >= a && inside < a + ph.p_memsz) contains = true;
        if (ph.p_flags & PF_X) {
            lo = a;
            hi = a + ph.p_memsz;
        }
    }
    if (!contains || hi == 0) return 0;
    g_loader_lo.store(lo, std::memory_order_relaxed);
    g_loader_hi.store(hi, std::memory_order_relaxed);
    return 1;
}

// _r_debug (<link.h>) is the loader's own data: the module holding it is ld.so.
void locate_loader() {
    if (g_loader_located.load(std::memory_order_acquire)) return;
    REAL(dl_iterate_phdr)(find_loader, &_r_debug);
    g_loader_located.store(true, std::memory_order_release);
}

bool in_loader(u64 pc) {
    return pc >= g_loader_lo.load(std::memory_order_relaxed) &&
           pc < g_loader_hi.load(std::memory_order_relaxed);
}

struct Iteration {
    int (*callback)(struct dl_phdr_info*, size_t, void*);
    void* data;
    u64 pc; // the program's dl_iterate_phdr call
};

// Runs inside the real dl_iterate_phdr, with the loader's lock held.
int locked_callback(struct dl_phdr_info* info, size_t size, void* data) {
    auto* it = static_cast<Iteration*>(data);
    InterceptorScope scope(enter_attached());
    if (!scope) return it->callback(info, size, it->data);
    ThreadState* t = scope.thread();
    acquire_now(t, fmt::kObjMutex, &g_loader_lock, it->pc);
    const int r = scope.outside([&] { return it->callback(info, size, it->data); });
    release_now(t, fmt::kObjMutex, &g_loader_lock, it->pc, false);
    return r;
}
} // namespace

FRT_EXPORT int dl_iterate_phdr(int (*callback)(struct dl_phdr_info*, size_t, void*), void* data) {
    const u64 pc = FRT_CALLER();
    auto real = REAL(dl_iterate_phdr);
    if (real == nullptr) return 0; // only inside dlsym before initialisation: nothing to visit
    if (g_state.load(std::memory_order_acquire) != RtState::Ready || from_runtime(pc) ||
        callback == nullptr)
        return real(callback, data);
    InterceptorScope scope(enter_call(pc));
    if (!scope) return real(callback, data);
    Iteration it{callback, data, pc};
    return scope.outside([&] { return real(locked_callback, &it); });
}
FRT_INTERCEPTOR_ALIAS(dl_iterate_phdr)

namespace frt {

LoaderClose::LoaderClose() : outer_(tls_in_dlclose) {
    locate_loader();
    tls_in_dlclose = true;
}

LoaderClose::~LoaderClose() {
    tls_in_dlclose = outer_;
}

void loader_teardown_free(ThreadState* t, u64 pc) {
    if (in_loader(pc)) release_now(t, fmt::kObjMutex, &g_loader_lock, pc, true);
}

} // namespace frt
