// The signal-handling thread pattern through a signalfd: SIGUSR1 is blocked in every thread,
// one thread reads it from a signalfd, another prepares a request and sends the signal to the
// process. Reading the signal accepts it synchronously, as sigwait does: the read is ordered
// after the send, so the reader sees the request (rt_fd.cpp: a signalfd read acquires the
// sends of the signals it returns).
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <unistd.h>

static int request;
static int signals;

static void* reader(void* arg) {
    (void)arg;
    struct signalfd_siginfo info;
    if (read(signals, &info, sizeof info) != sizeof info || info.ssi_signo != SIGUSR1) return NULL;
    printf("request %d\n", request);
    return NULL;
}

static void* sender(void* arg) {
    (void)arg;
    request = 42;
    kill(getpid(), SIGUSR1);
    return NULL;
}

int main(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL); // inherited by both threads
    signals = signalfd(-1, &set, SFD_CLOEXEC);
    if (signals < 0) return 1;
    pthread_t r, s;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&s, NULL, sender, NULL);
    pthread_join(s, NULL);
    pthread_join(r, NULL);
    close(signals);
    return 0;
}
