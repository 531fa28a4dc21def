// The epoll doorbell of epoll-doorbell.c, but the pipe producer fills its record after ringing:
// main reads it after the event and nothing orders the two (the eventfd producer, which rings
// after filling, stays ordered before main).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int doorbells[2]; // [0] an eventfd, [1] a pipe's write end
static int records[2];

static void* producer(void* arg) {
    const int which = (int)(intptr_t)arg;
    if (which == 0) records[0] = 42;
    const uint64_t one = 1;
    if (write(doorbells[which], &one, sizeof one) != sizeof one) return NULL;
    if (which == 1) records[1] = 43; // RACE
    return NULL;
}

int main(void) {
    int pipe_fds[2];
    const int epfd = epoll_create1(0);
    doorbells[0] = eventfd(0, 0);
    if (epfd < 0 || doorbells[0] < 0 || pipe(pipe_fds) != 0) return 1;
    doorbells[1] = pipe_fds[1];
    const int watched[2] = {doorbells[0], pipe_fds[0]};
    for (int i = 0; i < 2; ++i) {
        struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u32 = (uint32_t)i};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, watched[i], &ev) != 0) return 1;
    }
    pthread_t threads[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&threads[i], NULL, producer, (void*)(intptr_t)i);
    int sum = 0;
    for (unsigned seen = 0; seen != 3;) {
        struct epoll_event events[2];
        const int n = epoll_wait(epfd, events, 2, -1);
        for (int e = 0; e < n; ++e) {
            const unsigned which = events[e].data.u32;
            if (seen & (1u << which)) continue;
            seen |= 1u << which;
            sum += records[which]; // RACE
        }
    }
    for (int i = 0; i < 2; ++i)
        pthread_join(threads[i], NULL);
    close(doorbells[0]);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    close(epfd);
    printf("sum %d\n", sum);
    return 0;
}
