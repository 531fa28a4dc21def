// libc-environ-strings without the mutex: in a first phase the writer rewrites the string main
// gave putenv (it is the environment's entry) while the reader's getenv reads it, in a second
// (after a barrier) the writer refills the value the reader hands setenv while setenv copies
// it. Before, getenv read only `environ` and setenv none of its strings: both races were missed
// (clang 14 ThreadSanitizer: missed too).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t phase;
static char mode[] = "FRT_MODE=fast";
static char level[8] = "1";
static const char* found;

static void* writer(void* arg) {
    pthread_barrier_wait(&phase);
    memcpy(mode + 9, "slow", 4); // RACE
    pthread_barrier_wait(&phase);
    strcpy(level, "2"); // RACE
    return arg;
}

static void* reader(void* arg) {
    pthread_barrier_wait(&phase);
    found = getenv("FRT_MODE"); // RACE BUG in reader NAMED mode
    pthread_barrier_wait(&phase);
    setenv("FRT_LEVEL", level, 1); // RACE
    return arg;
}

int main(void) {
    putenv(mode);
    pthread_barrier_init(&phase, NULL, 2);
    pthread_t t[2];
    pthread_create(&t[0], NULL, writer, NULL);
    pthread_create(&t[1], NULL, reader, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s\n", found, getenv("FRT_LEVEL"));
    return 0;
}
