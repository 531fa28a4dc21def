// A run of the same release on one atomic (a seq_cst counter in a tight loop) is written as its
// first release only (atomic-release-loop.c): that must not order what the thread does after
// the run. The worker fills the payload after its last tick, main reads it after seeing that
// tick: a race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { kTicks = 1000000 };
static atomic_long ticks;
static long payload;

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < kTicks; ++i)
        atomic_fetch_add(&ticks, 1); // seq_cst: a release each time
    payload = 42;                    // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ticks, memory_order_acquire) < kTicks) {
    }
    long seen = payload; // RACE
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
