// Work handed between threads through the kernel: the producer fills a record and writes its
// index to a pipe; the consumer reads the index from the pipe and then uses the record. A
// second pair of threads does the same through an eventfd counter and a socketpair. What a
// write puts into a pipe or socket is there for the read that returns it: the write is ordered
// before that read.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define RECORDS 8

static struct {
    int id;
    char text[24];
} records[RECORDS];
static int pipe_fds[2];
static int event_fd;
static int sockets[2];
static long replies[RECORDS];

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < RECORDS; ++i) {
        records[i].id = i;
        snprintf(records[i].text, sizeof records[i].text, "record %d", i);
        if (write(pipe_fds[1], &i, sizeof i) != sizeof i) return NULL;
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* total = arg;
    for (int n = 0; n < RECORDS; ++n) {
        int i;
        if (read(pipe_fds[0], &i, sizeof i) != sizeof i) break;
        *total += records[i].id + (long)strlen(records[i].text);
    }
    return NULL;
}

static void* responder(void* arg) {
    (void)arg;
    for (int i = 0; i < RECORDS; ++i) {
        uint64_t one;
        if (read(event_fd, &one, sizeof one) != sizeof one) break; // wait for a request
        replies[i] = 100 + i;
        char c = 'r';
        if (send(sockets[1], &c, 1, 0) != 1) break;
    }
    return NULL;
}

int main(void) {
    if (pipe(pipe_fds) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sockets) != 0) return 1;
    event_fd = eventfd(0, 0);
    long total = 0;
    pthread_t p, c, r;
    pthread_create(&c, NULL, consumer, &total);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&r, NULL, responder, NULL);
    long sum = 0;
    for (int i = 0; i < RECORDS; ++i) {
        const uint64_t one = 1;
        if (write(event_fd, &one, sizeof one) != sizeof one) break;
        char c;
        if (recv(sockets[0], &c, 1, 0) != 1) break;
        sum += replies[i];
    }
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    pthread_join(r, NULL);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    printf("total %ld sum %ld\n", total, sum);
    return 0;
}
