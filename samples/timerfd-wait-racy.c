// timerfd-wait with the job's input written after the timer is armed: the read and the
// epoll_wait that report the expiration are ordered after the arming, not after what the
// arming thread does next.
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
    struct itimerspec when = {{0, 0}, {0, 2000000}};
    timerfd_settime(j->timer, 0, &when, NULL);
    j->input = 21; // RACE
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
    const int first = read_job.input * 2; // RACE
    struct epoll_event got;
    while (epoll_wait(ep, &got, 1, -1) != 1) {
    }
    const int second = poll_job.input * 2; // RACE
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    close(ep);
    close(read_job.timer);
    close(poll_job.timer);
    printf("%d %d %llu\n", first, second, (unsigned long long)expirations);
    return 0;
}
