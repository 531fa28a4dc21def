// child-process-wait with the creating threads writing after the creation: the waiters'
// reads race with those writes (a child's end orders only what came before its creation).
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
    pid_t child = fork();
    if (child == 0) _exit(3);
    atomic_store_explicit(&forked, 1, memory_order_relaxed);
    forked_config = 1; // RACE
    return arg;
}

static void* spawner(void* arg) {
    pid_t child;
    char* argv[] = {"true", NULL};
    posix_spawnp(&child, "true", NULL, NULL, argv, environ);
    atomic_store_explicit(&spawned, 1, memory_order_relaxed);
    spawned_config = 2; // RACE
    return arg;
}

static void* signal_forker(void* arg) {
    pid_t child = fork();
    if (child == 0) _exit(0);
    signalled_config = 3; // RACE
    return arg;
}

int main(void) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &chld, NULL);

    pthread_t t;
    pthread_create(&t, NULL, forker, NULL);
    while (!atomic_load_explicit(&forked, memory_order_relaxed))
        usleep(100);
    int status;
    while (waitpid(-1, &status, 0) < 0) {
    }
    long seen = forked_config + WEXITSTATUS(status); // RACE
    pthread_join(t, NULL);

    pthread_create(&t, NULL, spawner, NULL);
    while (!atomic_load_explicit(&spawned, memory_order_relaxed))
        usleep(100);
    siginfo_t info;
    while (waitid(P_ALL, 0, &info, WEXITED) != 0) {
    }
    seen += spawned_config; // RACE
    pthread_join(t, NULL);

    while (sigtimedwait(&chld, &info, &(struct timespec){0, 0}) > 0) {
    }
    pthread_create(&t, NULL, signal_forker, NULL);
    while (sigwaitinfo(&chld, &info) != SIGCHLD) {
    }
    seen += signalled_config; // RACE
    waitpid(info.si_pid, NULL, 0);
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
