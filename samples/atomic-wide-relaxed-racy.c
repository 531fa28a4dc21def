// BUILD-FLAGS: -latomic
// C11 atomics wider than any lock-free instruction (a 24-byte _Atomic struct: libatomic's
// generic __atomic_load/__atomic_store calls, which lock a mutex of libatomic's table and copy
// with memcpy) used with relaxed order: a sampler thread keeps storing a snapshot that main
// keeps loading, and every access to the snapshot is atomic (C11 5.1.2.4p25: no data race).
// The runtime performs libatomic's operation under its guard on every path: its memcpy was
// recorded as a plain access of the atomic when the operation was relaxed (main's runtime: a
// race between the sampler's atomic store and main's load, thousands a run with clang). The
// total is handed over by a release/acquire flag; here the sampler writes it after the release
// store, which publishes nothing then.
#include <pthread.h>
#include <stdatomic.h>

struct snapshot {
    long seq, sum, last;
};

static _Atomic struct snapshot current;
static atomic_int done;
static long total;
static volatile long observed_total; // 0 or 3000, by the race: kept, not checked

static void* sampler(void* arg) {
    (void)arg;
    for (long i = 1; i <= 3000; i++) {
        struct snapshot s = {i, i * (i + 1) / 2, i};
        atomic_store_explicit(&current, s, memory_order_relaxed);
    }
    atomic_store_explicit(&done, 1, memory_order_release);
    total = 3000; // RACE
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, sampler, 0);
    long seen = 0;
    while (!atomic_load_explicit(&done, memory_order_acquire)) {
        struct snapshot s = atomic_load_explicit(&current, memory_order_relaxed);
        if (s.seq > seen) seen = s.seq;
    }
    observed_total = total; // RACE
    pthread_join(t, 0);
    return seen > 3000;
}
