// The allocator hooks a program defines by name (see allocator-hooks.c), with a mistake: the
// malloc hook keeps the last block of the marker size in a plain global shared by the two
// workers, so their allocations write it unordered (the hooks run in the allocating thread).
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { kMarker = 4242, kBlocks = 100 };
static atomic_long allocated, freed;
static const volatile void* last_block; // shared: the race

void __sanitizer_malloc_hook(const volatile void* p, size_t n) {
    if (n != kMarker) return;
    last_block = p; // RACE BUG in __sanitizer_malloc_hook NAMED last_block
    atomic_fetch_add_explicit(&allocated, 1, memory_order_relaxed);
}

void __sanitizer_free_hook(const volatile void* p) {
    if (p != NULL && p == last_block) // RACE
        atomic_fetch_add_explicit(&freed, 1, memory_order_relaxed);
}

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < kBlocks; i++) {
        char* volatile b = malloc(kMarker);
        b[0] = (char)i;
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
    printf("hooks saw %ld allocations and %ld frees of the marker size\n", atomic_load(&allocated),
           atomic_load(&freed));
    return 0;
}
