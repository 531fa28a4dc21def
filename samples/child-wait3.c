// A thread forks a child and main reaps it with BSD's wait3 (glibc: wait4(-1, ...), in its own
// code): the child's end, reported by the wait, comes after the fork, so what the forking
// thread wrote before the fork happens before main's read after wait3 (XBD 4.12 lists fork and
// the waits). main learns that a child exists through a relaxed flag only. Race-free (before:
// wait3 was not interposed, a false race; clang 14 TSan reports it too). The wait also writes
// the status and the resource usage.
// PROCESS-TRACES: 2
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int config;
static atomic_int forked;

static void* forker(void* arg) {
    config = 1;
    pid_t child = fork();
    if (child == 0) _exit(3);
    atomic_store_explicit(&forked, 1, memory_order_relaxed);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, forker, NULL);
    while (!atomic_load_explicit(&forked, memory_order_relaxed))
        usleep(100);
    int status;
    struct rusage usage;
    while (wait3(&status, 0, &usage) <= 0) {
    }
    printf("%d %d %ld\n", config, WEXITSTATUS(status), (long)usage.ru_utime.tv_sec);
    pthread_join(t, NULL);
    return 0;
}
