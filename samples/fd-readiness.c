// Readiness and the descriptor calls glibc wraps (rt_fd_readiness.cpp, rt_fd_transfers.cpp):
// main fills a connection record and registers an eventfd with epoll, the record's address in
// data.ptr; the worker's epoll_wait returns it and the worker uses the record (epoll_ctl is
// ordered before an epoll_wait that returns its events, as in ThreadSanitizer). The worker then
// answers with eventfd_write; main polls the eventfd and reads it with eventfd_read before it
// reads the answer. Records also go through a pipe with pwritev/preadv-style vectors (writev on
// the pipe, preadv on a file the worker wrote with pwritev). No race.
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <unistd.h>

struct connection {
    int id;
    char name[16];
    int answer;
};

static int epfd, request_fd, answer_fd, file_fd;

static void* worker(void* arg) {
    (void)arg;
    struct epoll_event ev;
    if (epoll_wait(epfd, &ev, 1, -1) != 1) return NULL;
    struct connection* c = ev.data.ptr;
    eventfd_t v;
    eventfd_read(request_fd, &v);
    c->answer = c->id * 2 + c->name[0];
    char header[8] = "header", body[8] = "body";
    struct iovec out[2] = {{header, sizeof header}, {body, sizeof body}};
    if (pwritev(file_fd, out, 2, 0) < 0) return NULL;
    eventfd_write(answer_fd, 1);
    return NULL;
}

int main(void) {
    epfd = epoll_create1(0);
    request_fd = eventfd(0, 0);
    answer_fd = eventfd(0, 0);
    FILE* tmp = tmpfile();
    if (epfd < 0 || request_fd < 0 || answer_fd < 0 || tmp == NULL) return 1;
    file_fd = fileno(tmp);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    struct connection* c = malloc(sizeof *c);
    c->id = 21;
    snprintf(c->name, sizeof c->name, "client");
    c->answer = 0;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    eventfd_write(request_fd, 1);
    epoll_ctl(epfd, EPOLL_CTL_ADD, request_fd, &ev);
    struct pollfd p = {.fd = answer_fd, .events = POLLIN};
    while (poll(&p, 1, -1) != 1) {
    }
    eventfd_t v;
    eventfd_read(answer_fd, &v);
    const int answer = c->answer;
    char header[8], body[8];
    struct iovec in[2] = {{header, sizeof header}, {body, sizeof body}};
    const ssize_t got = preadv(file_fd, in, 2, 0);
    pthread_join(t, NULL);
    printf("%d %zd %s\n", answer, got, body);
    free(c);
    fclose(tmp);
    close(epfd);
    close(request_fd);
    close(answer_fd);
    return 0;
}
