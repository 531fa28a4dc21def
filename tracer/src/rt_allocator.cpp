// The allocator: malloc, calloc, realloc, free and the aligned variants, interposed (operator
// new/delete and strdup & co. come through them).
//
//   allocation  kRecAlloc (address, size, pc, context): the heap block the process got, for
//               reports ("heap block of N bytes allocated at ..."). If the block was freed
//               before by another process, an Acquire on its kObjHeapBlock object follows: the
//               allocator hands a block out again only after its free, so nothing done to the
//               block before the free races with what its new owner does. A block last freed by
//               the same process needs no edge (process order).
//   free        a write of the whole block (malloc_usable_size bytes: what the program may have
//               used), so a use of the block unordered with its free is a race, then a Release
//               on the block's object, recorded always (the later owner is not known yet),
//               and the freeing process noted in the object (`extra` = pid + 1).
//   realloc     a free of the old block and an allocation of the new one (in place: the
//               same process, no edge).
// All of this is recorded whatever the number of running threads: a thread that ended
// without being joined frees blocks that main reuses.
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_record.hpp"

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
// the outermost one sets it). Consumed by the next allocator call.
__thread u64 tls_caller_pc __attribute__((tls_model("initial-exec"))) = 0;

FRT_INLINE u64 caller(u64 pc) {
    const u64 c = tls_caller_pc;
    if (c == 0) return pc;
    tls_caller_pc = 0;
    return c;
}

void heap_free(void* p, u64 pc) {
    pc = caller(pc);
    ThreadState* t = enter();
    if (t == nullptr) return;
    library_access(t, pc, p, malloc_usable_size(p), true);
    const u64 c0 = now();
    close_computation(t, c0);
    ObjEntry* o = object(fmt::kObjHeapBlock, p);
    o->extra.store(static_cast<i64>(t->pid) + 1, std::memory_order_relaxed);
    record(t, fmt::kOpRelease, fmt::kObjHeapBlock, p, o->counter.fetch_add(1), c0, pc);
    leave(t);
}

void heap_allocated(void* p, size_t n, u64 pc) {
    pc = caller(pc);
    if (p == nullptr) return;
    ThreadState* t = enter();
    if (t == nullptr) return;
    emit_alloc(t, reinterpret_cast<u64>(p), n, pc);
    ObjEntry* o = find_object(fmt::kObjHeapBlock, p);
    if (o != nullptr && o->extra.load(std::memory_order_relaxed) != static_cast<i64>(t->pid) + 1) {
        const u64 c0 = now();
        close_computation(t, c0);
        record(t, fmt::kOpAcquire, fmt::kObjHeapBlock, p, o->counter.fetch_add(1), c0, pc);
    }
    leave(t);
}

} // namespace

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

// --- C++ operator new / delete (Itanium mangled names; forwarded to libstdc++'s) --------------

namespace {
template <class F> F next(F& slot, const char* name) {
    if (slot == nullptr) slot = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
    return slot;
}
} // namespace

#define FRT_NEW(name, ...)                                                                         \
    namespace {                                                                                    \
    void* (*real_##name)(__VA_ARGS__) = nullptr;                                                   \
    }                                                                                              \
    FRT_EXPORT void* name(FRT_NEW_PARAMS_##name) {                                                 \
        const bool outermost = tls_caller_pc == 0;                                                 \
        if (outermost) tls_caller_pc = FRT_CALLER();                                               \
        void* p = next(real_##name, #name)(FRT_NEW_ARGS_##name);                                   \
        if (outermost) tls_caller_pc = 0;                                                          \
        return p;                                                                                  \
    }
#define FRT_DELETE(name, ...)                                                                      \
    namespace {                                                                                    \
    void (*real_##name)(__VA_ARGS__) = nullptr;                                                    \
    }                                                                                              \
    FRT_EXPORT void name(FRT_DELETE_PARAMS_##name) {                                               \
        const bool outermost = tls_caller_pc == 0;                                                 \
        if (outermost) tls_caller_pc = FRT_CALLER();                                               \
        next(real_##name, #name)(FRT_DELETE_ARGS_##name);                                          \
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
