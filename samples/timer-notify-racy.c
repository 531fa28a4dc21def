// As timer-notify.c, but main renames the configuration after arming the timer, while the
// notification that reaches the wanted count reads the name (arming orders only what came
// before it), and that notification stamps the report after posting the semaphore main waits
// on before reading it.
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
static struct config config;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ticks; // under lock
long stamp_ns;    // external: not dead code
static char report[32];
static sem_t done;

static void on_tick(union sigval value) {
    const struct config* c = value.sival_ptr;
    pthread_mutex_lock(&lock);
    const int n = ++ticks;
    pthread_mutex_unlock(&lock);
    if (n == c->ticks_wanted) {
        snprintf(report, sizeof report, "%s %d", c->label, n); // RACE
        sem_post(&done);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        stamp_ns = now.tv_nsec; // RACE
    }
}

int main(void) {
    sem_init(&done, 0, 0);
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
    strcpy(config.label, "tocks"); // RACE
    while (sem_wait(&done) != 0) {
    }
    timer_delete(timer);
    printf("%s %ld\n", report, stamp_ns); // RACE
    return 0;
}
