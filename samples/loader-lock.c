// The dynamic loader's lock: one thread walks the loaded objects with dl_iterate_phdr and reads
// each one's name while main loads and unloads a library. dlclose frees the library's name and
// link map (free is a write of the block), but only after unlinking it from the list under the
// loader's lock, which dl_iterate_phdr holds around each callback: every read of a name is
// ordered before the free of that name.
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

static int visit(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    size_t* total = data;
    const char* name = info->dlpi_name;
    size_t n = 0;
    while (name[n] != '\0') // instrumented reads of the name
        ++n;
    *total += n + strlen(name); // and the library call's
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
    for (int i = 0; i < kRounds; ++i) {
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
