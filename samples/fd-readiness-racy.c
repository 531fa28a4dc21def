// fd-readiness.c with the record completed too late: main names the connection after
// registering it with epoll_ctl, so the worker that epoll_wait hands the record to reads a name
// nothing orders; and the worker stores its answer after eventfd_write, which main reads after
// its eventfd_read.
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct connection {
    int id;
    char name[16];
    int answer;
};

static int epfd, request_fd, answer_fd;

static void* worker(void* arg) {
    (void)arg;
    struct epoll_event ev;
    if (epoll_wait(epfd, &ev, 1, -1) != 1) return NULL;
    struct connection* c = ev.data.ptr;
    const int first = c->name[0]; // RACE
    eventfd_write(answer_fd, 1);
    c->answer = c->id * 2 + first; // RACE
    return NULL;
}

int main(void) {
    epfd = epoll_create1(0);
    request_fd = eventfd(1, 0);
    answer_fd = eventfd(0, 0);
    if (epfd < 0 || request_fd < 0 || answer_fd < 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    struct connection* c = calloc(1, sizeof *c);
    c->id = 21;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epfd, EPOLL_CTL_ADD, request_fd, &ev);
    c->name[0] = 'c'; // RACE
    eventfd_t v;
    eventfd_read(answer_fd, &v);
    const int answer = c->answer; // RACE
    pthread_join(t, NULL);
    printf("%d\n", answer);
    free(c);
    close(epfd);
    close(request_fd);
    close(answer_fd);
    return 0;
}
