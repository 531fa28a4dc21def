// The signal-handling thread pattern: every thread blocks SIGUSR1, one thread accepts it
// synchronously with sigwait() (no handler runs), another prepares a request and sends the
// signal with pthread_kill(). The send is a Release and sigwait's return an Acquire of the
// signal, so the waiter's reads of the request are ordered after its writes. sigtimedwait()
// then hands a second request over the same way. No race.
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

static pthread_t waiter_thread;
static int request[2];

static void* waiter(void* arg) {
    sigset_t* set = arg;
    int sig = 0;
    if (sigwait(set, &sig) != 0 || sig != SIGUSR1) return NULL;
    int first = request[0];
    struct timespec limit = {10, 0};
    if (sigtimedwait(set, NULL, &limit) != SIGUSR1) return NULL;
    printf("requests %d %d\n", first, request[1]);
    return NULL;
}

static void* sender(void* arg) {
    (void)arg;
    request[0] = 42;
    pthread_kill(waiter_thread, SIGUSR1);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL); // two signals sent at once could merge into one pending signal
    request[1] = 43;
    pthread_kill(waiter_thread, SIGUSR1);
    return NULL;
}

int main(void) {
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL); // inherited by both threads
    pthread_create(&waiter_thread, NULL, waiter, &set);
    pthread_t s;
    pthread_create(&s, NULL, sender, NULL);
    pthread_join(s, NULL);
    pthread_join(waiter_thread, NULL);
    return 0;
}
