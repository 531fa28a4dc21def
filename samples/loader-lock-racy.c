// The dynamic loader's lock orders the loader's data, not the program's: one thread walks the
// loaded objects with dl_iterate_phdr (reading each name: no race with the frees of dlclose,
// loader-lock.c) and also reads the round number that main writes before each dlopen. Main
// holds the loader's lock only while dlclose tears its library down, not at that write: the
// callback's read races with it (ThreadSanitizer does not order dl_iterate_phdr either).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { kRounds = 50 };
static atomic_int done;
static atomic_int iterations;
static int round_number;

static int visit(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    size_t* total = data;
    const char* name = info->dlpi_name;
    size_t n = 0;
    while (name[n] != '\0') // instrumented reads of the name
        ++n;
    *total += n + strlen(name) + (size_t)round_number; // RACE
    return strcmp(name, "no such module") == 0;
}

static void* walker(void* arg) {
    size_t total = 0;
    while (!atomic_load_explicit(&done, memory_order_relaxed)) {
        dl_iterate_phdr(visit, &total);
        atomic_fetch_add_explicit(&iterations, 1, memory_order_relaxed);
        const struct timespec pause = {0, 100000};
        nanosleep(&pause, NULL);
    }
    *(size_t*)arg = total;
    return NULL;
}

int main(void) {
    size_t total = 0;
    pthread_t t;
    pthread_create(&t, NULL, walker, &total);
    // at least one walk (one read of round_number) however the threads are scheduled; the
    // relaxed counter orders nothing
    while (atomic_load_explicit(&iterations, memory_order_relaxed) == 0) {
    }
    for (int i = 0; i < kRounds; ++i) {
        round_number = i; // RACE
        void* lib = dlopen("libresolv.so.2", RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        dlclose(lib);
    }
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%d walks, %zu name bytes\n", atomic_load(&iterations), total);
    return 0;
}
