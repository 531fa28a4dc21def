// Copies of the process made with glibc's clone() without CLONE_VM while a thread hammers an
// atomic counter: each copy may start with that counter's runtime spin lock held by a thread it
// does not have, so the copy frees the runtime's locks and stops tracing before the program's
// function runs (otherwise its own increment spins forever). The copies' work is in their own
// memory: the parent's trace shows no race.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static atomic_long counter;
static atomic_int stop;

static void* incrementer(void* arg) {
    (void)arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed))
        atomic_fetch_add(&counter, 1);
    return NULL;
}

static int copy_main(void* arg) {
    (void)arg;
    for (int i = 0; i < 200; ++i)
        atomic_fetch_add(&counter, 1);
    exit(0);
}

int main(void) {
    static char stack[64 << 10] __attribute__((aligned(64)));
    pthread_t t;
    pthread_create(&t, NULL, incrementer, NULL);
    for (int i = 0; i < 8; ++i) {
        const int pid = clone(copy_main, stack + sizeof stack, SIGCHLD, NULL);
        if (pid == -1) return 1;
        while (waitpid(pid, NULL, 0) != pid) {
        }
    }
    atomic_store_explicit(&stop, 1, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%d\n", atomic_load(&counter) > 0);
    return 0;
}
