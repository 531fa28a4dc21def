// A traced program runs itself again as a worker (`worker`: two threads count under a mutex
// and print the total) through posix_spawn, system() and popen(). The C library starts each
// with a vfork-like clone that execs (/bin/sh -c for system and popen, which then execs the
// worker): no fork handler, no interposed exec runs. Each instrumented worker finds the trace
// directory taken and traces into exec-<pid> inside it; /bin/sh is not instrumented and not
// traced. Before, each worker said "another traced process writes there; not tracing" on
// stderr and its races were not found. No race.
// PROCESS-TRACES: 4 (the program, three workers)
#define _GNU_SOURCE
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int worker(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", total);
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "worker") == 0) return worker();
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = 0;
    char* spawn_argv[] = {self, "worker", NULL};
    pid_t child;
    int status;
    if (posix_spawn(&child, self, NULL, NULL, spawn_argv, environ) != 0) return 2;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 3;
    char command[4200];
    snprintf(command, sizeof command, "'%s' worker", self);
    if (system(command) != 0) return 4;
    FILE* out = popen(command, "r");
    if (out == NULL) return 5;
    long counted = 0;
    if (fscanf(out, "%ld", &counted) != 1 || pclose(out) != 0 || counted != 3000) return 6;
    return 0;
}
