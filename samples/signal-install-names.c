// Handlers installed under the other names of the C library (rt_signals.cpp): a program built for
// strict ISO C (-std=c11, no _DEFAULT_SOURCE) calls `signal` as glibc's __sysv_signal, and
// X/Open's sigset and bsd_signal install handlers too; glibc makes each call its own sigaction
// inside. A worker waits; main fills a table, installs the three handlers and sends the worker
// the signals: what main wrote before installing a handler happened before the handler runs
// (before, these handlers ran unwrapped, with no Acquire of their installation: a false race on
// each entry, clang 14 ThreadSanitizer too). The racy variant writes an entry after installing.
// BUILD-FLAGS: -std=c11
#define _XOPEN_SOURCE 600
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static int table[3];
static atomic_int handled;

static void on_usr1(int sig) {
    atomic_fetch_add_explicit(&handled, table[0] + (sig == SIGUSR1), memory_order_relaxed);
}
static void on_usr2(int sig) {
    atomic_fetch_add_explicit(&handled, table[1] + (sig == SIGUSR2), memory_order_relaxed);
}
static void on_winch(int sig) {
    atomic_fetch_add_explicit(&handled, table[2] + (sig == SIGWINCH), memory_order_relaxed);
}

static void* worker(void* arg) {
    const struct timespec pause = {0, 1000000};
    while (atomic_load_explicit(&handled, memory_order_relaxed) < 3 + 7 + 11 + 13)
        nanosleep(&pause, NULL);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    table[0] = 7;
    table[1] = 11;
    table[2] = 13;
    signal(SIGUSR1, on_usr1); // __sysv_signal: reset to the default once delivered
    sigset(SIGUSR2, on_usr2);
    bsd_signal(SIGWINCH, on_winch);
    pthread_kill(t, SIGUSR1);
    pthread_kill(t, SIGUSR2);
    pthread_kill(t, SIGWINCH);
    pthread_join(t, NULL);
    printf("%d\n", atomic_load(&handled));
    return 0;
}
