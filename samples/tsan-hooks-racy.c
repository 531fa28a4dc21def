// ThreadSanitizer's program hooks: TSan looks up __tsan_on_initialize and __tsan_on_finalize
// with dlsym (an executable's own definitions need -rdynamic) and calls the first at the end of
// its initialisation, before main, and the second from its exit handler, after the program's
// own: firstrace calls them at the same points and traces them. The initialisation hook sets up
// a table main checks (the program stops if it did not run); the finalisation hook reads what a
// detached reporter wrote, which nothing orders before it in the racy variant (main waits for it
// on a relaxed flag): the race shows that the hook ran and was traced. The race-free variant
// waits with an acquire load.
// BUILD-FLAGS: -rdynamic
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int table[4];
int initialized;
int report;
int reported;

void __tsan_on_initialize(void) {
    for (int i = 0; i < 4; ++i)
        table[i] = i * i;
    initialized = 1;
}

int __tsan_on_finalize(int failed) {
    if (report != 42) abort(); // RACE
    return failed;
}

static void* reporter(void* arg) {
    (void)arg;
    report = 42; // RACE
    __atomic_store_n(&reported, 1, __ATOMIC_RELAXED);
    return NULL;
}

int main(void) {
    if (!initialized || table[3] != 9) {
        fprintf(stderr, "__tsan_on_initialize did not run\n");
        return 1;
    }
    pthread_t t;
    pthread_create(&t, NULL, reporter, NULL);
    pthread_detach(t);
    while (!__atomic_load_n(&reported, __ATOMIC_RELAXED))
        ;
    return 0;
}
