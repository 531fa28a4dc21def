/* memcpy, memmove and memset, interposed: clang's -fsanitize=thread leaves these calls
 * uninstrumented (the sanitizer runtime is expected to intercept them), so they are recorded
 * here as a read and a write range at the caller's program counter. gcc instruments them
 * itself (__tsan_read_range / __tsan_write_range); the duplicate ranges are harmless.
 * Built with -fno-builtin so that the fallback loops are not turned back into memcpy calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

void frt_record_memory(void* pc, const void* addr, size_t size, int write);
void frt_record_copy(void* pc, void* dst, const void* src, size_t size);

typedef void* (*copy_fn)(void*, const void*, size_t);
typedef void* (*set_fn)(void*, int, size_t);
static copy_fn real_memcpy, real_memmove;
static set_fn real_memset;
static __thread int resolving __attribute__((tls_model("initial-exec")));

typedef union {
    void* object;
    copy_fn copy;
    set_fn set;
} symbol; /* object pointer -> function pointer without a cast ISO C forbids */

static symbol resolve(const char* name) {
    symbol s;
    resolving = 1;
    s.object = dlsym(RTLD_NEXT, name);
    resolving = 0;
    return s;
}

__attribute__((visibility("default"))) void* memcpy(void* restrict dst, const void* restrict src,
                                                    size_t n) {
    if (n) frt_record_copy(__builtin_return_address(0), dst, src, n);
    if (!real_memcpy && !resolving) real_memcpy = resolve("memcpy").copy;
    if (real_memcpy) return real_memcpy(dst, src, n);
    unsigned char* d = dst;
    const unsigned char* s = src;
    for (size_t i = 0; i < n; ++i)
        d[i] = s[i];
    return dst;
}

__attribute__((visibility("default"))) void* memmove(void* dst, const void* src, size_t n) {
    if (n) frt_record_copy(__builtin_return_address(0), dst, src, n);
    if (!real_memmove && !resolving) real_memmove = resolve("memmove").copy;
    if (real_memmove) return real_memmove(dst, src, n);
    unsigned char* d = dst;
    const unsigned char* s = src;
    if (d < s)
        for (size_t i = 0; i < n; ++i)
            d[i] = s[i];
    else
        for (size_t i = n; i > 0; --i)
            d[i - 1] = s[i - 1];
    return dst;
}

__attribute__((visibility("default"))) void* memset(void* dst, int c, size_t n) {
    if (n) frt_record_memory(__builtin_return_address(0), dst, n, 1);
    if (!real_memset && !resolving) real_memset = resolve("memset").set;
    if (real_memset) return real_memset(dst, c, n);
    unsigned char* d = dst;
    for (size_t i = 0; i < n; ++i)
        d[i] = (unsigned char)c;
    return dst;
}

/* Resolved when the runtime is loaded, before anything else runs: resolving on the first call
 * instead means a dlsym in the middle of whatever the program is doing, and glibc's dlsym frees
 * the thread's previous dlerror string, which may not be in a state to be freed then (seen as
 * "free(): double free detected" on a program's first vector growth). */
__attribute__((constructor(101))) static void resolve_memory_functions(void) {
    if (!real_memcpy) real_memcpy = resolve("memcpy").copy;
    if (!real_memmove) real_memmove = resolve("memmove").copy;
    if (!real_memset) real_memset = resolve("memset").set;
}

/* The __interceptor_ names (see rt_record.hpp). */
#define FRT_INTERCEPTOR_ALIAS(name)                                                                \
    __asm__(".globl __interceptor_" #name "\n.type __interceptor_" #name                           \
            ",@function\n.set __interceptor_" #name ", " #name);
FRT_INTERCEPTOR_ALIAS(memcpy)
FRT_INTERCEPTOR_ALIAS(memmove)
FRT_INTERCEPTOR_ALIAS(memset)

/* LLVM 16 and later's ThreadSanitizer pass turns the memory intrinsics into calls of
 * __tsan_memcpy / __tsan_memmove / __tsan_memset (clang 14's into memcpy ...): the same
 * functions, so that the caller's program counter is the access's. */
#define FRT_TSAN_MEMORY_ALIAS(name)                                                                \
    __asm__(".globl __tsan_" #name "\n.type __tsan_" #name ",@function\n.set __tsan_" #name        \
            ", " #name);
FRT_TSAN_MEMORY_ALIAS(memcpy)
FRT_TSAN_MEMORY_ALIAS(memmove)
FRT_TSAN_MEMORY_ALIAS(memset)
