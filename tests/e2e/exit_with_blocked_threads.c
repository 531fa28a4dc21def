// Returns from main while other threads are still there. `blocked`: a thread that blocked every
// signal with pthread_sigmask waits in a read that never returns, another in sigsuspend with
// every signal blocked but one never sent; the trace is complete (exit() ends every thread, and
// those did all they were going to do before the call), not truncated.
// `unreachable`: one more thread blocks every signal with the raw system call (which nothing
// interposes: the runtime's exit flush cannot reach it) and keeps writing: its open event is
// lost at exit, so the trace is truncated and says which thread was still running.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int never_written[2];
static volatile int spun[64];
static volatile int started;

static void* blocked_in_read(void* arg) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    char byte;
    if (read(never_written[0], &byte, 1) < 0) return NULL;
    return arg;
}

static void* suspended(void* arg) {
    sigset_t all_but_usr2;
    sigfillset(&all_but_usr2);
    sigdelset(&all_but_usr2, SIGUSR2);
    sigsuspend(&all_but_usr2);
    return arg;
}

static void* unreachable_spinner(void* arg) {
    sigset_t all;
    sigfillset(&all);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, _NSIG / 8);
    started = 1;
    for (;;)
        for (int i = 0; i < 64; ++i)
            spun[i] += 1;
    return arg;
}

int main(int argc, char** argv) {
    if (pipe(never_written) != 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, blocked_in_read, NULL);
    pthread_create(&t, NULL, suspended, NULL);
    if (argc > 1 && strcmp(argv[1], "unreachable") == 0) {
        pthread_create(&t, NULL, unreachable_spinner, NULL);
        while (!started)
            usleep(1000);
    }
    usleep(20000);
    return 0;
}
