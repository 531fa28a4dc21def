// A thread creates child processes and other threads wait for their ends (XSH fork,
// posix_spawn, waitpid, waitid; XSH 2.4.3 SIGCHLD): a child exists only after its creation,
// and its end is reported only after it ended, so what the creating thread wrote before the
// fork / posix_spawn happens before what a thread does after the wait that reaped the child or
// after accepting the SIGCHLD its end sends. The waiters learn that a child exists through
// relaxed flags only. Race-free (before: 3 false races; clang 14 TSan reports them too).
// PROCESS-TRACES: 3
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
static int forked_config, spawned_config, signalled_config;
static atomic_int forked, spawned;

static void* forker(void* arg) {
    forked_config = 1;
    pid_t child = fork();
    if (child == 0) _exit(3);
    atomic_store_explicit(&forked, 1, memory_order_relaxed);
    return arg;
}

static void* spawner(void* arg) {
    spawned_config = 2;
    pid_t child;
    char* argv[] = {"true", NULL};
    posix_spawnp(&child, "true", NULL, NULL, argv, environ);
    atomic_store_explicit(&spawned, 1, memory_order_relaxed);
    return arg;
}

static void* signal_forker(void* arg) {
    signalled_config = 3;
    pid_t child = fork();
    if (child == 0) _exit(0);
    return arg;
}

int main(void) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &chld, NULL); // the threads inherit it

    pthread_t t;
    pthread_create(&t, NULL, forker, NULL);
    while (!atomic_load_explicit(&forked, memory_order_relaxed))
        usleep(100);
    int status;
    while (waitpid(-1, &status, 0) < 0) {
    }
    long seen = forked_config + WEXITSTATUS(status);
    pthread_join(t, NULL);

    pthread_create(&t, NULL, spawner, NULL);
    while (!atomic_load_explicit(&spawned, memory_order_relaxed))
        usleep(100);
    siginfo_t info;
    while (waitid(P_ALL, 0, &info, WEXITED) != 0) {
    }
    seen += spawned_config;
    pthread_join(t, NULL);

    while (sigtimedwait(&chld, &info, &(struct timespec){0, 0}) > 0) { // drain earlier ones
    }
    pthread_create(&t, NULL, signal_forker, NULL);
    while (sigwaitinfo(&chld, &info) != SIGCHLD) {
    }
    seen += signalled_config;
    waitpid(info.si_pid, NULL, 0);
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
