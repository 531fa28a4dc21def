// A suppressions file named by TSAN_OPTIONS (suppressions=FILE, the way TSan users keep theirs;
// the runtime reads it at start-up and keeps it in the trace): the workers' progress log
// (race:log_progress, a frame of the stack: the write is in an inlined helper) and an unlocked
// tally (race_top:^tally_unlocked$, the innermost frame) are suppressed; the unlocked update of
// `total` is not in the racy twin; here it is made under a mutex.
// RUN-ENV: TSAN_OPTIONS=halt_on_error=0:suppressions='@SAMPLE_DIR@/tsan-options-suppressions.supp'
#include <pthread.h>
#include <stdio.h>

int progress;
int tally;
int total;
pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

static inline void note(int step) {
    progress = step;
}

__attribute__((noinline)) void log_progress(int step) {
    note(step);
}

__attribute__((noinline)) void tally_unlocked(void) {
    tally++;
}

// The thread's own mutex ends the computation event (each race is then one race site).
static void end_event(void) {
    pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&own);
    pthread_mutex_unlock(&own);
}

static void* worker(void* arg) {
    log_progress(*(int*)arg);
    end_event();
    tally_unlocked();
    end_event();
    pthread_mutex_lock(&total_lock);
    total += *(int*)arg;
    pthread_mutex_unlock(&total_lock);
    return NULL;
}

int main(void) {
    pthread_t t[2];
    int steps[2] = {1, 2};
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, &steps[i]);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %d\n", progress, tally, total);
    return 0;
}
