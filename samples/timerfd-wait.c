// Timers that expire through a descriptor: a thread prepares a job and arms a timerfd; main
// waits for the expiration, once by reading the descriptor and once through epoll. The
// expiration the kernel counts is the arming's, so the arming is ordered before the read (and
// the epoll_wait) that reports it, and the job with it.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

struct job {
    int timer;
    int input;
};

static void* armer(void* arg) {
    struct job* j = arg;
    j->input = 21;
    struct itimerspec when = {{0, 0}, {0, 2000000}};
    timerfd_settime(j->timer, 0, &when, NULL);
    return NULL;
}

static struct job read_job, poll_job;

int main(void) {
    read_job.timer = timerfd_create(CLOCK_MONOTONIC, 0);
    poll_job.timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = poll_job.timer};
    epoll_ctl(ep, EPOLL_CTL_ADD, poll_job.timer, &ev);

    pthread_t a, b;
    pthread_create(&a, NULL, armer, &read_job);
    pthread_create(&b, NULL, armer, &poll_job);
    uint64_t expirations = 0;
    if (read(read_job.timer, &expirations, sizeof expirations) != sizeof expirations) return 1;
    const int first = read_job.input * 2;
    struct epoll_event got;
    while (epoll_wait(ep, &got, 1, -1) != 1) {
    }
    const int second = poll_job.input * 2;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    close(ep);
    close(read_job.timer);
    close(poll_job.timer);
    printf("%d %d %llu\n", first, second, (unsigned long long)expirations);
    return 0;
}
