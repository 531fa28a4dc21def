// A child process made with glibc's clone() without CLONE_VM is not followed and does not write
// into the parent's trace, which stays readable: the parent's worker updates the counter
// unordered with main's update.
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
    counter += 1; // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    const int pid = clone(child, child_stack + sizeof child_stack, SIGCHLD, NULL);
    if (pid == -1) return 1;
    int status = 0;
    while (waitpid(pid, &status, 0) != pid) {
    }
    counter += 1; // RACE
    pthread_join(t, NULL);
    printf("%d %d\n", counter, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
