// fd-close-loop.c with the calls that close a range at once (Linux 5.9, glibc 2.34):
// `close_range(3, ~0U, 0)` at the start, `closefrom(3)` once the logger that wrote to a pipe was
// joined, and, from a thread while two adders run, `syscall(SYS_close_range, 3, ~0U, 0)` and
// `close_range(3, ~0U, CLOSE_RANGE_CLOEXEC)`. The runtime's descriptors are left out of each
// range (the real call closes the runs between them); the program's descriptors in the range
// are closed as by close(): the closefrom is a write of the pipe's descriptors, ordered after
// the logger's write by the join. No race. (close_range once closed the trace's files.)
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static int log_pipe[2];

static void* logger(void* arg) {
    (void)arg;
    if (write(log_pipe[1], "started\n", 8) != 8) return (void*)1;
    return NULL;
}

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void* closer(void* arg) {
    (void)arg;
    syscall(SYS_close_range, 3, ~0U, 0);
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    return NULL;
}

int main(void) {
    if (close_range(3, ~0U, 0) != 0) return 1;
    if (pipe(log_pipe) != 0 || log_pipe[0] != 3) return 1;
    pthread_t l;
    pthread_create(&l, NULL, logger, NULL);
    pthread_join(l, NULL);
    closefrom(3);
    pthread_t a, b, c;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&c, NULL, closer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    const int fd = open("/dev/null", O_RDONLY);
    printf("total %ld, first descriptor %d\n", total, fd);
    return total == 3000 && fd == 3 ? 0 : 1;
}
