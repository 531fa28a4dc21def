// The cost of one synchronization operation: one thread takes and releases an uncontended
// mutex N times (default 2·10^6) around an increment of a shared counter, then prints the
// mean time of a lock + unlock pair. Each pair is two events, two clock readings and two
// records under firstrace; a read and a write of the mutex and two clock updates under
// ThreadSanitizer. `bench/tracing/run.sh` (ONLY=lock_pairs) times it plain, recorded and under
// both compilers' TSan in one run; the printed per-pair time is the program's own view.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

int main(int argc, char** argv) {
    const long pairs = argc > 1 ? atol(argv[1]) : 2000000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < pairs; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    const double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("%ld pairs, %.1f ns per lock + unlock\n", counter, ns / (double)pairs);
    return 0;
}
