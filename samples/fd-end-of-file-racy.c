// fd-end-of-file with the producers setting the summary before their last write and an extra
// count after it: the reader that gets the last record is ordered after that write (and the
// summary before it), but the count written after it races with the reader's use of it, which
// happens before end of file.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

struct channel {
    int fds[2];
    int summary;
    int count;
};

static void* producer(void* arg) {
    struct channel* c = arg;
    c->summary = 6;
    for (int i = 1; i <= 3; ++i)
        if (write(c->fds[1], &i, sizeof i) != sizeof i) break;
    c->count = 3; // RACE
    close(c->fds[1]);
    return NULL;
}

static void* consumer(void* arg) {
    struct channel* c = arg;
    long total = 0;
    int i;
    while (read(c->fds[0], &i, sizeof i) == sizeof i)
        if (i == 3) total += c->count; // RACE
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
