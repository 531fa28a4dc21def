// The producer fills each record after writing its index to the pipe: the consumer's read is
// ordered after the write, not after what the producer does next.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define RECORDS 4

static int records[RECORDS];
static int pipe_fds[2];

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < RECORDS; ++i) {
        if (write(pipe_fds[1], &i, sizeof i) != sizeof i) return NULL;
        records[i] = i * 10; // RACE
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* total = arg;
    for (int n = 0; n < RECORDS; ++n) {
        int i;
        if (read(pipe_fds[0], &i, sizeof i) != sizeof i) break;
        *total += records[i]; // RACE
    }
    return NULL;
}

int main(void) {
    if (pipe(pipe_fds) != 0) return 1;
    long total = 0;
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, &total);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(c, NULL);
    pthread_join(p, NULL);
    close(pipe_fds[1]);
    close(pipe_fds[0]);
    printf("total %ld\n", total);
    return 0;
}
