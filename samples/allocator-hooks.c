// The allocator hooks a program defines by name (sanitizer/allocator_interface.h, which the
// sanitizer runtimes call on every allocation and free: compiler-rt's malloc_hook test): two
// workers allocate and free blocks of a marker size, the hooks count them in atomics, main checks
// the counts after the joins (exit status 1 if a hook was not called: firstrace before called
// only hooks installed with __sanitizer_install_malloc_and_free_hooks). Each worker also asks
// the allocator queries of allocator_interface.h about its block (declared here: gcc ships no
// such header; exit status 1 if a size is below the size asked for). The hooks are the
// program's code, traced. No race.
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { kMarker = 4242, kBlocks = 100 };
static atomic_long allocated, freed, wrong_answers;
int __sanitizer_get_ownership(const volatile void* p);
size_t __sanitizer_get_allocated_size(const volatile void* p);
size_t __sanitizer_get_allocated_size_fast(const volatile void* p); // LLVM 17+
static _Thread_local const volatile void* last_block;               // a thread's own

void __sanitizer_malloc_hook(const volatile void* p, size_t n) {
    if (n != kMarker) return;
    last_block = p;
    atomic_fetch_add_explicit(&allocated, 1, memory_order_relaxed);
}

void __sanitizer_free_hook(const volatile void* p) {
    if (p != NULL && p == last_block) atomic_fetch_add_explicit(&freed, 1, memory_order_relaxed);
}

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < kBlocks; i++) {
        char* volatile b = malloc(kMarker);
        b[0] = (char)i;
        if (!__sanitizer_get_ownership(b) || __sanitizer_get_allocated_size(b) < kMarker ||
            __sanitizer_get_allocated_size_fast(b) < kMarker)
            atomic_fetch_add_explicit(&wrong_answers, 1, memory_order_relaxed);
        free(b);
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    const long a = atomic_load(&allocated), f = atomic_load(&freed);
    printf("hooks saw %ld allocations and %ld frees of the marker size\n", a, f);
    return a == 2 * kBlocks && f == 2 * kBlocks && atomic_load(&wrong_answers) == 0 ? 0 : 1;
}
