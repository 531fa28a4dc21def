// A child process made with glibc's clone() without CLONE_VM (a copy of the process, as
// sandboxes make them): it is not followed, and its exit must not write into the parent's
// trace (it shares the parent's open stream files). The parent's threads are ordered by join.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static int counter;
static char child_stack[64 << 10] __attribute__((aligned(64)));

static int child(void* arg) {
    (void)arg;
    counter = 100; // the child's own copy
    exit(0);
}

static void* worker(void* arg) {
    (void)arg;
    counter += 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    const int pid = clone(child, child_stack + sizeof child_stack, SIGCHLD, NULL);
    if (pid == -1) return 1;
    int status = 0;
    while (waitpid(pid, &status, 0) != pid) {
    }
    counter += 1;
    printf("%d %d\n", counter, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
