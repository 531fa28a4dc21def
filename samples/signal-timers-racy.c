// Timers that expire by sending a signal, accepted synchronously (see signal-timers.c), with
// both arming threads writing after arming: the waiters' reads race with those writes (arming
// orders only what came before it).
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static int timer_config;  // written before timer_settime
static int itimer_config; // written before setitimer

// What a waiter accepts and reads (through a pointer: a compiler that sees both variables
// may load both and select one, a read of the other variable the source does not make).
struct waiter {
    int signal;
    const int* config;
};

static void* accept_one(void* arg) {
    const struct waiter* w = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, w->signal);
    int sig = 0;
    if (sigwait(&set, &sig) != 0 || sig != w->signal) return NULL;
    return (void*)(long)*w->config; // RACE
}

static void* arm_posix_timer(void* arg) {
    (void)arg;
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGUSR1;
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0) return NULL;
    const struct itimerspec in_20ms = {{0, 0}, {0, 20 * 1000 * 1000}};
    timer_settime(timer, 0, &in_20ms, NULL);
    timer_config = 5; // RACE BUG in arm_posix_timer NAMED timer_config
    return NULL;
}

int main(void) {
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGUSR1);
    sigaddset(&both, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &both, NULL); // inherited by every thread
    pthread_t usr1, alrm, armer;
    static const struct waiter on_usr1 = {SIGUSR1, &timer_config};
    static const struct waiter on_alrm = {SIGALRM, &itimer_config};
    pthread_create(&usr1, NULL, accept_one, (void*)&on_usr1);
    pthread_create(&alrm, NULL, accept_one, (void*)&on_alrm);
    pthread_create(&armer, NULL, arm_posix_timer, NULL);
    const struct itimerval in_30ms = {{0, 0}, {0, 30 * 1000}};
    setitimer(ITIMER_REAL, &in_30ms, NULL);
    itimer_config = 7; // RACE
    void* a;
    void* b;
    pthread_join(usr1, &a);
    pthread_join(alrm, &b);
    pthread_join(armer, NULL);
    printf("accepted %ld and %ld\n", (long)a, (long)b);
    return 0;
}
