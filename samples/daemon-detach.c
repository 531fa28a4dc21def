// A program that becomes a daemon after its adders counted under a lock: daemon(0, 0) forks,
// ends the parent with _exit(0) and, in the child, starts a new session, moves to / and points
// 0, 1, 2 at /dev/null; the child starts a thread of its own and returns. glibc's daemon ends
// the parent with its internal _exit, which the runtime did not see: the parent's trace had
// no end line (a truncated trace). The runtime's daemon does the same steps through the
// interposed fork and _exit. The child is traced into fork-<pid> as any fork child. No race.
// PROCESS-TRACES: 2 (the program, the daemon (its fork child))
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (total != 3000) return 1;
    if (daemon(0, 0) != 0) return 2;
    // the daemon: its own session, in /, with its standard descriptors on /dev/null
    if (getsid(0) != getpid()) return 3;
    pthread_create(&a, NULL, adder, (void*)3);
    pthread_join(a, NULL);
    return 0;
}
