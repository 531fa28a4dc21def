// signal-install-names with the SIGUSR2 entry written after its handler is installed: sending the
// signal orders nothing (POSIX XBD 4.12), so the handler's read races with that write. The other
// entries stay ordered by their installations (before, every entry raced: the handlers ran
// unwrapped).
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
    atomic_fetch_add_explicit(&handled, table[1] + (sig == SIGUSR2), // RACE
                              memory_order_relaxed);
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
    table[2] = 13;
    signal(SIGUSR1, on_usr1);
    sigset(SIGUSR2, on_usr2);
    bsd_signal(SIGWINCH, on_winch);
    table[1] = 11; // RACE BUG in main NAMED table
    pthread_kill(t, SIGUSR1);
    pthread_kill(t, SIGUSR2);
    pthread_kill(t, SIGWINCH);
    pthread_join(t, NULL);
    printf("%d\n", atomic_load(&handled));
    return 0;
}
