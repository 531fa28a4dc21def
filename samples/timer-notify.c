// A POSIX timer with SIGEV_THREAD notification: the C library runs the notification function
// on a thread of its own for each expiration. Main prepares the configuration before arming
// the timer (arming orders it before every notification), the notifications count their ticks
// under a mutex, and the one that reaches the wanted count writes a report and posts a
// semaphore that main waits on. At exit glibc's timer helper thread is still blocked in
// sigwaitinfo, and a detached thread that blocked every signal is blocked in a read that never
// returns: both have written everything they did, so the trace is complete (not truncated).
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct config {
    int ticks_wanted;
    char label[16];
};
static struct config config; // filled before the timer is armed
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ticks; // under lock
static char report[32];
static sem_t done;
static int never_written[2];

static void on_tick(union sigval value) {
    const struct config* c = value.sival_ptr;
    pthread_mutex_lock(&lock);
    const int n = ++ticks;
    pthread_mutex_unlock(&lock);
    if (n == c->ticks_wanted) {
        snprintf(report, sizeof report, "%s %d", c->label, n);
        sem_post(&done);
    }
}

static void* blocked_forever(void* arg) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    char byte;
    if (read(never_written[0], &byte, 1) < 0) perror("read");
    return arg;
}

int main(void) {
    sem_init(&done, 0, 0);
    if (pipe(never_written) != 0) return 1;
    pthread_t blocked;
    pthread_create(&blocked, NULL, blocked_forever, NULL);
    pthread_detach(blocked);

    config.ticks_wanted = 3;
    strcpy(config.label, "ticks");
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD;
    event.sigev_notify_function = on_tick;
    event.sigev_value.sival_ptr = &config;
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return 1;
    const struct itimerspec every_2ms = {{0, 2000000}, {0, 2000000}};
    timer_settime(timer, 0, &every_2ms, NULL);
    while (sem_wait(&done) != 0) {
    }
    timer_delete(timer);
    printf("%s\n", report);
    pthread_mutex_lock(&lock);
    const int seen = ticks;
    pthread_mutex_unlock(&lock);
    return seen >= 3 ? 0 : 1;
}
