// fd-close-loop.c, but main closes every descriptor while the logger may still write to its
// pipe (not joined first: the close is a write of the descriptor, the write a read of it), and
// the adders, started after the program first closed everything and running while it does
// again, add without the lock.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once
static int log_pipe[2];

static void close_everything(void) {
    for (int fd = 3; fd < 65536; fd++)
        close(fd); // RACE
}

static void* logger(void* arg) {
    (void)arg;
    write(log_pipe[1], "started\n", 8); // RACE
    return NULL;
}

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
    return NULL;
}

int main(void) {
    close_everything();
    if (pipe(log_pipe) != 0 || log_pipe[0] != 3) return 1;
    pthread_t l, a, b;
    pthread_create(&l, NULL, logger, NULL);
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    close_everything();
    pthread_join(l, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    const int fd = open("/dev/null", O_RDONLY);
    printf("total %ld, first descriptor %d\n", total, fd);
    return fd == 3 ? 0 : 1;
}
