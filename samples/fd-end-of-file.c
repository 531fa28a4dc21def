// Readers that read until end of file: a pipe's and two socketpairs'. The writer sets a summary
// after its last write and then closes its end (or shuts the connection down for writing); the
// reader sees end of file (read returns 0) only once every descriptor of the write end is closed,
// so the close is ordered before that read, and the summary with it. A read that returns data is
// ordered after the write of that data only, not after the close that may follow it
// (fd-end-of-file-racy).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

struct channel {
    int fds[2];
    int shut; // ends with shutdown(SHUT_WR) instead of close
    int summary;
};

static void* producer(void* arg) {
    struct channel* c = arg;
    for (int i = 1; i <= 3; ++i)
        if (write(c->fds[1], &i, sizeof i) != sizeof i) break;
    c->summary = 6;
    if (c->shut)
        shutdown(c->fds[1], SHUT_WR);
    else
        close(c->fds[1]);
    return NULL;
}

static void* consumer(void* arg) {
    struct channel* c = arg;
    long total = 0;
    int i;
    while (read(c->fds[0], &i, sizeof i) == sizeof i)
        total += i;
    return (void*)(total + c->summary);
}

int main(void) {
    struct channel channels[3] = {{.shut = 0}, {.shut = 0}, {.shut = 1}};
    if (pipe(channels[0].fds) != 0) return 1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, channels[1].fds) != 0) return 1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, channels[2].fds) != 0) return 1;
    pthread_t p[3], c[3];
    for (int k = 0; k < 3; ++k) {
        pthread_create(&c[k], NULL, consumer, &channels[k]);
        pthread_create(&p[k], NULL, producer, &channels[k]);
    }
    void* sums[3];
    for (int k = 0; k < 3; ++k) {
        pthread_join(c[k], &sums[k]);
        pthread_join(p[k], NULL);
        close(channels[k].fds[0]);
    }
    close(channels[2].fds[1]);
    printf("%ld %ld %ld\n", (long)sums[0], (long)sums[1], (long)sums[2]);
    return 0;
}
