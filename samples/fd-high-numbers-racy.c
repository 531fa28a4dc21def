// fd-high-numbers with two bugs on descriptors above 4095: the producer fills the record after
// writing to the pipe (main reads it unordered), and main closes descriptor 4200 while the
// logger may still write to it (a close is a write of the descriptor, a write a read of it).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

enum { PIPE_IN = 4100, PIPE_OUT = 4101, SINK = 4200 };

static int record[4];

static void* producer(void* arg) {
    (void)arg;
    const char ready = 'r';
    write(PIPE_OUT, &ready, 1);
    for (int i = 0; i < 4; ++i)
        record[i] = 10 * i + 1; // RACE
    return NULL;
}

static void* logger(void* arg) {
    (void)arg;
    for (int i = 0; i < 10; ++i)
        write(SINK, "log\n", 4); // RACE
    return NULL;
}

int main(void) {
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max <= SINK) {
        fprintf(stderr, "hard descriptor limit %lu: too low\n", (unsigned long)limit.rlim_max);
        return 1;
    }
    limit.rlim_cur = SINK + 100;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return 1;
    int p[2];
    if (pipe(p) != 0 || dup2(p[0], PIPE_IN) != PIPE_IN || dup2(p[1], PIPE_OUT) != PIPE_OUT)
        return 1;
    close(p[0]);
    close(p[1]);
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, SINK) != SINK) return 1;
    close(null);
    pthread_t t, l;
    pthread_create(&t, NULL, producer, NULL);
    pthread_create(&l, NULL, logger, NULL);
    char ready;
    if (read(PIPE_IN, &ready, 1) != 1) return 1;
    int sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += record[i]; // RACE
    close(SINK);          // RACE
    pthread_join(t, NULL);
    pthread_join(l, NULL);
    close(PIPE_IN);
    close(PIPE_OUT);
    printf("%d\n", sum);
    return 0;
}
