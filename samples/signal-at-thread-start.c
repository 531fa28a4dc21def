// A signal sent to a thread the moment it is created: main prepares a table, installs a
// handler that reads it, and sends each new thread SIGUSR1 right after pthread_create, so the
// signal often lands while the thread is still starting. The handler runs on that thread,
// after its creation, which is ordered after main's writes (the runtime keeps signals blocked
// until the new thread is registered: a handler run before would be traced as a thread of its
// own, created by nobody, and its accesses taken for races with main's writes of the table and
// with the thread's own later write of the thread-local counter the handler updated).
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

enum { kThreads = 40 };
static int table[4];
static atomic_int handled;
static _Thread_local int seen;

static void handler(int sig) {
    (void)sig;
    seen += table[0] + table[3];
    atomic_fetch_add_explicit(&handled, 1, memory_order_relaxed);
}

static void* worker(void* arg) {
    (void)arg;
    usleep(2000); // time for the signal
    seen += 1;    // after the handler, on the same thread
    return NULL;
}

int main(void) {
    for (int i = 0; i < 4; ++i)
        table[i] = 10 * i;
    struct sigaction act = {0};
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    if (sigaction(SIGUSR1, &act, NULL) != 0) return 1;
    pthread_t threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        pthread_create(&threads[i], NULL, worker, NULL);
        pthread_kill(threads[i], SIGUSR1);
    }
    for (int i = 0; i < kThreads; ++i)
        pthread_join(threads[i], NULL);
    printf("%d handled\n", atomic_load(&handled));
    return 0;
}
