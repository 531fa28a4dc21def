// As signal-wait.c, but the sender changes the request after sending the signal: the
// waiter's read after sigwait() is ordered after the first write only.
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static pthread_t waiter_thread;
static int request;

static void* waiter(void* arg) {
    sigset_t* set = arg;
    int sig = 0;
    if (sigwait(set, &sig) != 0 || sig != SIGUSR1) return NULL;
    printf("request %d\n", request); // RACE
    return NULL;
}

static void* sender(void* arg) {
    (void)arg;
    request = 42;
    pthread_kill(waiter_thread, SIGUSR1);
    request = 43; // RACE
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
