// Readers that read until end of file: a pipe's and a socketpair's. The writer sets a summary
// after its last write and then closes its end; the reader sees end of file (read returns 0)
// only once every descriptor of the write end is closed, so the close is ordered before that
// read, and the summary with it. A read that returns data is ordered after the write of that
// data only, not after the close that may follow it (fd-end-of-file-racy).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

struct channel {
    int fds[2];
    int summary;
};

static void* producer(void* arg) {
    struct channel* c = arg;
    for (int i = 1; i <= 3; ++i)
        if (write(c->fds[1], &i, sizeof i) != sizeof i) break;
    c->summary = 6;
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
    struct channel pipe_channel, socket_channel;
    if (pipe(pipe_channel.fds) != 0) return 1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, socket_channel.fds) != 0) return 1;
    pthread_t p[2], c[2];
    pthread_create(&c[0], NULL, consumer, &pipe_channel);
    pthread_create(&c[1], NULL, consumer, &socket_channel);
    pthread_create(&p[0], NULL, producer, &pipe_channel);
    pthread_create(&p[1], NULL, producer, &socket_channel);
    void* sums[2];
    for (int k = 0; k < 2; ++k) {
        pthread_join(c[k], &sums[k]);
        pthread_join(p[k], NULL);
    }
    close(pipe_channel.fds[0]);
    close(socket_channel.fds[0]);
    printf("%ld %ld\n", (long)sums[0], (long)sums[1]);
    return 0;
}
