// The program's own ThreadSanitizer suppressions (__tsan_default_suppressions, which TSan
// declares weak and calls at start-up): two workers count hits in an unlocked statistics
// counter (suppressed by function: race:count_hit), set a global flag (suppressed by the global's
// name: race:^ignored_global$) and add to the result, which no suppression covers: that race is
// reported, as clang's ThreadSanitizer reports it. The race-free twin suppresses it too.
#include <pthread.h>
#include <stdio.h>

int stats_hits;
int ignored_global;
int result;

const char* __tsan_default_suppressions(void) {
    return "# counters that are allowed to be off\n"
           "race:count_hit\n"
           "race:^ignored_global$\n";
}

__attribute__((noinline)) void count_hit(void) {
    stats_hits++;
}

// A lock and unlock of the thread's own mutex end the current computation event: the three
// updates are three events, so each race is one race site (a race whose events share a
// reported race site is listed whole, suppressed sites included).
static void end_event(void) {
    pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&own);
    pthread_mutex_unlock(&own);
}

static void* worker(void* arg) {
    count_hit();
    end_event();
    ignored_global = 1;
    end_event();
    result += *(int*)arg; // RACE
    return NULL;
}

int main(void) {
    pthread_t t[2];
    int one = 1;
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, &one);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %d\n", stats_hits, ignored_global, result);
    return 0;
}
