// The allocator: malloc, calloc, realloc, free and the aligned variants, interposed (operator
// new/delete and strdup & co. come through them).
//
//   allocation  kRecAlloc (address, size, pc, context): the heap block the process got, for
//               reports ("heap block of N bytes allocated at ..."); last, a write of the n
//               bytes asked for: C++11 [new.delete.dataraces] has operator new, malloc and
//               calloc behave, for data races, "as though they accessed and modified only the
//               storage referenced by the return value", so a use of the block unordered with
//               its allocation (a pointer handed over by relaxed atomics) is a race, as in
//               ThreadSanitizer. (C11 7.22.3p2 says only that allocation touches no other
//               storage; the runtime cannot tell C's malloc from C++'s.) Not for the blocks
//               the C library and the dynamic loader allocate for themselves
//               (allocated_for_system_library), nor for those a thread-safe library call
//               allocates and frees for its own state (rt_library_own_blocks.hpp; not a write
//               on their free either). Before it, an
//               Acquire of every free by another process that last gave back some byte of the block
//               (malloc_usable_size bytes; rt_freed_memory.hpp): the allocator hands bytes out
//               again only after their free (C11 7.22.3p2), so nothing done to them before the
//               free races with what the new owner does. glibc splits and coalesces freed
//               chunks, so the frees are found by the bytes they gave back, not by the block's
//               start. Bytes last freed by the same process need no edge (process order) and
//               no record: the common case (thread caches, a thread's own arena) costs a scan
//               of the block's shadow and nothing else.
//   free        a write of the whole block (malloc_usable_size bytes: what the program may have
//               used), so a use of the block unordered with its free is a race, then a Release
//               on the free's own object, recorded always (the later owner is not known yet),
//               and the free's tag over the block's shadow before the real free can hand the
//               bytes out. The object: kObjHeapBlock, incarnation = the free's id (unique per
//               free), address = the block on the Release; on the Acquires the new block
//               (address and, as the extra value, usable size: the allocating thread knows the
//               free only by its tag; the reader names heap-block objects by incarnation). The
//               Release has counter 0, every Acquire counter 1. The analyzer makes such an
//               Acquire the start of a new lifetime of the block's bytes, not an ordering of
//               the two threads (DESIGN-NOTES "Lifetimes of reused memory").
//               A block glibc maps for itself (above its mmap threshold) over a dead thread's
//               stack starts a new lifetime of its bytes first, as a mapping does.
//   realloc     a free of the old block and an allocation of the new one (in place: the
//               same process, no edge).
// All of this is recorded whatever the number of running threads: a thread that ended
// without being joined frees blocks that main reuses.
#include <link.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "rt_library_own_blocks.hpp"
#include "rt_loader_lock.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_reuse_ordering.hpp"
#include "rt_stdio.hpp"
#include "rt_sync_misuse.hpp"

using namespace frt;
namespace fmt = firstrace::format;

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
void* __libc_memalign(size_t, size_t);
}

namespace {

// C++ operator new/delete (in libstdc++, uninstrumented) allocate through malloc/free; they
// leave their caller's pc here so that the block and the free's write are attributed to the
// program's new/delete expression rather than to libstdc++ (operator new[] calls operator new:
// the outermost one sets it). Consumed by the next allocator call. Inside fopen/fclose every
// allocator call is the program's call (tls_library_call_pc, rt_stdio.hpp).
__thread u64 tls_caller_pc __attribute__((tls_model("initial-exec"))) = 0;

FRT_INLINE u64 caller(u64 pc) {
    const u64 c = tls_caller_pc;
    if (c == 0) return tls_library_call_pc != 0 ? tls_library_call_pc : pc;
    tls_caller_pc = 0;
    return c;
}

// __sanitizer_install_malloc_and_free_hooks (sanitizer/allocator_interface.h).
std::atomic<void (*)(const volatile void*, size_t)> g_malloc_hook{nullptr};
std::atomic<void (*)(const volatile void*)> g_free_hook{nullptr};
} // namespace

// The hooks a program defines by name (sanitizer/allocator_interface.h: "weak hooks" the
// sanitizer runtimes call on every allocation and free, before the installed ones; weak
// references here, null unless the program defines them).
extern "C" {
__attribute__((weak, visibility("default"))) void __sanitizer_malloc_hook(const volatile void* p,
                                                                          size_t n);
__attribute__((weak, visibility("default"))) void __sanitizer_free_hook(const volatile void* p);
}

namespace {
void run_malloc_hooks(void* p, size_t n) {
    if (__sanitizer_malloc_hook != nullptr) __sanitizer_malloc_hook(p, n);
    if (auto hook = g_malloc_hook.load(std::memory_order_relaxed)) hook(p, n);
}
void run_free_hooks(void* p) {
    if (__sanitizer_free_hook != nullptr) __sanitizer_free_hook(p);
    if (auto hook = g_free_hook.load(std::memory_order_relaxed)) hook(p);
}

bool freed_by_library_thread(const ThreadState* t, u64 call_pc); // below
bool freed_by_loader(u64 call_pc);                               // below

void heap_free(void* p, u64 pc) {
    // The OpenMP runtime's own blocks (dispatch buffers, task blocks) order nothing of the
    // program (its task blocks are handled by rt_openmp.cpp).
    if (in_openmp_runtime(pc)) return;
    const u64 call_pc = pc;
    pc = caller(pc);
    run_free_hooks(p);
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    before_free(t, call_pc); // inside dlclose: the loader's lock (rt_loader_lock.cpp)
    const u64 lo = reinterpret_cast<u64>(p);
    const u64 size = malloc_usable_size(p);
    if (!freed_by_library_thread(t, call_pc) && !freed_by_loader(call_pc) &&
        !tls_library_owns_blocks)
        freed_range_written(t, pc, lo, size); // rt_sync_misuse.hpp: blocked barriers aside
    record_free(t, lo, lo + size, pc);
}

// The C library's and the dynamic loader's own code: their allocations for themselves (a
// stream's buffer on the first I/O, internal caches, the loader's link maps and names inside
// dlopen) hand the storage to the library, not to the program, which reaches it only through
// the library's calls (modelled on their own: a stream's state, the loader's lock). No write of
// the block for those. An allocation made inside fopen & co. on the program's behalf
// (tls_library_call_pc) is the program's.
struct CodeRange {
    u64 lo = 0, hi = 0;
    bool contains(u64 pc) const { return pc >= lo && pc < hi; }
};
CodeRange g_c_library, g_loader;
int find_system_code(struct dl_phdr_info* info, size_t, void*) {
    const u64 malloc_pc = reinterpret_cast<u64>(&__libc_malloc);
    const bool loader = info->dlpi_addr == getauxval(AT_BASE);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
        const CodeRange code{info->dlpi_addr + ph.p_vaddr,
                             info->dlpi_addr + ph.p_vaddr + ph.p_memsz};
        if (code.contains(malloc_pc)) g_c_library = code;
        if (loader) g_loader = code;
    }
    return 0;
}
__attribute__((constructor(101))) void locate_system_code() {
    dl_iterate_phdr(find_system_code, nullptr);
}
bool allocated_for_system_library(u64 call_pc) {
    return (g_c_library.contains(call_pc) || g_loader.contains(call_pc)) &&
           tls_library_call_pc == 0;
}

// A thread of the C library's own (attached, not created through pthread_create's wrapper:
// glibc's SIGEV_THREAD helper and notification threads, its AIO workers) freeing in the C
// library's own code: the block is the library's bookkeeping (the helper mallocs a notification's
// arguments, the notification thread frees them before calling the program's function), handed
// between the library's threads by its internal pthread_create, which the runtime does not see.
// Not a write of the block, as the library's own allocations are not; the free still orders the
// block's reuse.
bool freed_by_library_thread(const ThreadState* t, u64 call_pc) {
    return t->parent == kNoPid && t->thread_pid != 0 && allocated_for_system_library(call_pc);
}

// The dynamic loader freeing in its own code: it frees only what it allocated for itself (link
// maps, names, a dead thread's TLS vector when glibc drops a cached stack: any thread may do that,
// under a lock of the C library's that the runtime does not see), which was no write of the
// program's either. Not a write of the block; the free still orders the block's reuse. (A free in
// the C library's code stays a write: freeaddrinfo, fclose and the like free what the program
// used.)
bool freed_by_loader(u64 call_pc) {
    return g_loader.contains(call_pc) && tls_library_call_pc == 0;
}

// glibc maps a block above its mmap threshold in its own code (glibc malloc.c: IS_MMAPPED, bit
// 1 of the chunk's size field, just below the block; the runtime allocates through glibc's
// __libc_malloc, so every block has that header). Such a block is a new mapping, which may lie
// where glibc unmapped a dead thread's cached stack unseen: then a new lifetime of its bytes,
// as for mmap (rt_reuse_ordering.hpp).
bool glibc_mapped_chunk(const void* p) {
    constexpr size_t kIsMmapped = 0x2;
    return (reinterpret_cast<const size_t*>(p)[-1] & kIsMmapped) != 0;
}

void heap_allocated(void* p, size_t n, u64 pc) {
    if (in_openmp_runtime(pc)) return;
    const bool for_system_library = allocated_for_system_library(pc);
    pc = caller(pc);
    if (p == nullptr) return;
    run_malloc_hooks(p, n);
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    const u64 lo = reinterpret_cast<u64>(p);
    emit_alloc(t, lo, n, pc);
    if (glibc_mapped_chunk(p)) record_mapping(t, lo, lo + malloc_usable_size(p), pc);
    record_reuse(t, lo, lo + malloc_usable_size(p), pc);
    if (!for_system_library && !tls_library_owns_blocks) library_access(t, pc, p, n, true);
}

} // namespace

__thread bool frt::tls_library_owns_blocks __attribute__((tls_model("initial-exec"))) = false;

FRT_EXPORT void* malloc(size_t n) {
    void* p = __libc_malloc(n);
    heap_allocated(p, n, FRT_CALLER());
    return p;
}
FRT_EXPORT void* calloc(size_t n, size_t size) {
    void* p = __libc_calloc(n, size);
    heap_allocated(p, n * size, FRT_CALLER());
    return p;
}
FRT_EXPORT void* realloc(void* old, size_t n) {
    if (old != nullptr) heap_free(old, FRT_CALLER());
    void* p = __libc_realloc(old, n);
    heap_allocated(p, n, FRT_CALLER());
    return p;
}
FRT_EXPORT void free(void* p) {
    if (p != nullptr) heap_free(p, FRT_CALLER());
    __libc_free(p);
}
FRT_EXPORT int posix_memalign(void** out, size_t alignment, size_t n) {
    if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return 22; // EINVAL
    void* p = __libc_memalign(alignment, n);
    if (p == nullptr) return 12; // ENOMEM
    heap_allocated(p, n, FRT_CALLER());
    *out = p;
    return 0;
}
FRT_EXPORT void* aligned_alloc(size_t alignment, size_t n) {
    void* p = __libc_memalign(alignment, n);
    heap_allocated(p, n, FRT_CALLER());
    return p;
}
FRT_EXPORT void* memalign(size_t alignment, size_t n) {
    void* p = __libc_memalign(alignment, n);
    heap_allocated(p, n, FRT_CALLER());
    return p;
}
FRT_EXPORT void* valloc(size_t n) {
    void* p = __libc_memalign(static_cast<size_t>(sysconf(_SC_PAGESIZE)), n);
    heap_allocated(p, n, FRT_CALLER());
    return p;
}
// pvalloc (glibc): valloc of the size rounded up to whole pages (one page for 0).
FRT_EXPORT void* pvalloc(size_t n) {
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t rounded = n == 0 ? page : (n + page - 1) / page * page;
    if (rounded < n) return nullptr; // the rounding overflowed: glibc fails with ENOMEM too
    void* p = __libc_memalign(page, rounded);
    heap_allocated(p, rounded, FRT_CALLER());
    return p;
}

// --- the sanitizer allocator interface (sanitizer/allocator_interface.h), on glibc's malloc ---

FRT_EXPORT size_t __sanitizer_get_allocated_size(const volatile void* p) {
    return p != nullptr ? malloc_usable_size(const_cast<void*>(p)) : 0;
}
// LLVM 17+: the same for a block's start, without the ownership check glibc never makes.
FRT_EXPORT size_t __sanitizer_get_allocated_size_fast(const volatile void* p) {
    return __sanitizer_get_allocated_size(p);
}
// glibc cannot tell whether an arbitrary pointer is the start of one of its blocks: the heap
// blocks the program got are in the trace (kRecAlloc), this answers for non-null pointers.
FRT_EXPORT int __sanitizer_get_ownership(const volatile void* p) {
    return p != nullptr;
}
FRT_EXPORT size_t __sanitizer_get_estimated_allocated_size(size_t n) {
    return n;
}
FRT_EXPORT size_t __sanitizer_get_current_allocated_bytes() {
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
FRT_EXPORT size_t __sanitizer_get_heap_size() {
    const struct mallinfo2 m = mallinfo2();
    return m.arena + m.hblkhd;
}
FRT_EXPORT size_t __sanitizer_get_free_bytes() {
    return mallinfo2().fordblks;
}
FRT_EXPORT size_t __sanitizer_get_unmapped_bytes() {
    return 0;
}
FRT_EXPORT int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             size_t),
                                                         void (*free_hook)(const volatile void*)) {
    g_malloc_hook.store(malloc_hook, std::memory_order_relaxed);
    g_free_hook.store(free_hook, std::memory_order_relaxed);
    return 1;
}
FRT_EXPORT void __sanitizer_purge_allocator() {
    malloc_trim(0);
}

// --- C++ operator new / delete (Itanium mangled names; forwarded to libstdc++'s) --------------

#define FRT_NEW(name, ...)                                                                         \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, void* (*)(__VA_ARGS__));                                          \
    }                                                                                              \
    FRT_EXPORT void* name(FRT_NEW_PARAMS_##name) {                                                 \
        const bool outermost = tls_caller_pc == 0;                                                 \
        if (outermost) tls_caller_pc = FRT_CALLER();                                               \
        void* p = REAL(name)(FRT_NEW_ARGS_##name);                                                 \
        if (outermost) tls_caller_pc = 0;                                                          \
        return p;                                                                                  \
    }
#define FRT_DELETE(name, ...)                                                                      \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, void (*)(__VA_ARGS__));                                           \
    }                                                                                              \
    FRT_EXPORT void name(FRT_DELETE_PARAMS_##name) {                                               \
        const bool outermost = tls_caller_pc == 0;                                                 \
        if (outermost) tls_caller_pc = FRT_CALLER();                                               \
        REAL(name)(FRT_DELETE_ARGS_##name);                                                        \
        if (outermost) tls_caller_pc = 0;                                                          \
    }

// operator new(size_t), new[](size_t), their nothrow and align_val_t forms
#define FRT_NEW_PARAMS__Znwm size_t n
#define FRT_NEW_ARGS__Znwm n
#define FRT_NEW_PARAMS__Znam size_t n
#define FRT_NEW_ARGS__Znam n
#define FRT_NEW_PARAMS__ZnwmRKSt9nothrow_t size_t n, const void *nt
#define FRT_NEW_ARGS__ZnwmRKSt9nothrow_t n, nt
#define FRT_NEW_PARAMS__ZnamRKSt9nothrow_t size_t n, const void *nt
#define FRT_NEW_ARGS__ZnamRKSt9nothrow_t n, nt
#define FRT_NEW_PARAMS__ZnwmSt11align_val_t size_t n, size_t a
#define FRT_NEW_ARGS__ZnwmSt11align_val_t n, a
#define FRT_NEW_PARAMS__ZnamSt11align_val_t size_t n, size_t a
#define FRT_NEW_ARGS__ZnamSt11align_val_t n, a
FRT_NEW(_Znwm, size_t)
FRT_NEW(_Znam, size_t)
FRT_NEW(_ZnwmRKSt9nothrow_t, size_t, const void*)
FRT_NEW(_ZnamRKSt9nothrow_t, size_t, const void*)
FRT_NEW(_ZnwmSt11align_val_t, size_t, size_t)
FRT_NEW(_ZnamSt11align_val_t, size_t, size_t)

// operator delete(void*), delete[](void*), sized and aligned forms
#define FRT_DELETE_PARAMS__ZdlPv void* p
#define FRT_DELETE_ARGS__ZdlPv p
#define FRT_DELETE_PARAMS__ZdaPv void* p
#define FRT_DELETE_ARGS__ZdaPv p
#define FRT_DELETE_PARAMS__ZdlPvm void *p, size_t n
#define FRT_DELETE_ARGS__ZdlPvm p, n
#define FRT_DELETE_PARAMS__ZdaPvm void *p, size_t n
#define FRT_DELETE_ARGS__ZdaPvm p, n
#define FRT_DELETE_PARAMS__ZdlPvSt11align_val_t void *p, size_t a
#define FRT_DELETE_ARGS__ZdlPvSt11align_val_t p, a
#define FRT_DELETE_PARAMS__ZdaPvSt11align_val_t void *p, size_t a
#define FRT_DELETE_ARGS__ZdaPvSt11align_val_t p, a
#define FRT_DELETE_PARAMS__ZdlPvmSt11align_val_t void *p, size_t n, size_t a
#define FRT_DELETE_ARGS__ZdlPvmSt11align_val_t p, n, a
#define FRT_DELETE_PARAMS__ZdaPvmSt11align_val_t void *p, size_t n, size_t a
#define FRT_DELETE_ARGS__ZdaPvmSt11align_val_t p, n, a
FRT_DELETE(_ZdlPv, void*)
FRT_DELETE(_ZdaPv, void*)
FRT_DELETE(_ZdlPvm, void*, size_t)
FRT_DELETE(_ZdaPvm, void*, size_t)
FRT_DELETE(_ZdlPvSt11align_val_t, void*, size_t)
FRT_DELETE(_ZdaPvSt11align_val_t, void*, size_t)
FRT_DELETE(_ZdlPvmSt11align_val_t, void*, size_t, size_t)
FRT_DELETE(_ZdaPvmSt11align_val_t, void*, size_t, size_t)

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(malloc)
FRT_INTERCEPTOR_ALIAS(calloc)
FRT_INTERCEPTOR_ALIAS(realloc)
FRT_INTERCEPTOR_ALIAS(free)
FRT_INTERCEPTOR_ALIAS(posix_memalign)
FRT_INTERCEPTOR_ALIAS(aligned_alloc)
FRT_INTERCEPTOR_ALIAS(memalign)
FRT_INTERCEPTOR_ALIAS(valloc)
FRT_INTERCEPTOR_ALIAS(pvalloc)
