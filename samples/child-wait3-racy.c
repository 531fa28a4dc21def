// child-wait3 with a write after the fork: the forking thread changes the configuration after
// its child exists, unordered with main's read after wait3.
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
    config = 2; // RACE BUG in forker
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
    printf("%d %d %ld\n", config, WEXITSTATUS(status), (long)usage.ru_utime.tv_sec); // RACE
    pthread_join(t, NULL);
    return 0;
}
