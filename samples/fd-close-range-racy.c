// fd-close-range.c, but main's closefrom(3) runs while the logger may still write to its pipe
// (closefrom closes it: a write of the descriptor, unordered with the logger's use), and the
// adders add without the lock while a thread closes every range.
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once
static int log_pipe[2];

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

static void* closer(void* arg) {
    (void)arg;
    syscall(SYS_close_range, 3, ~0U, 0);
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    return NULL;
}

int main(void) {
    // closefrom closes the pipe's read end before its write end: a logger writing in between
    // would die of SIGPIPE (the sample failed 1 run in a few thousand)
    signal(SIGPIPE, SIG_IGN);
    if (close_range(3, ~0U, 0) != 0) return 1;
    if (pipe(log_pipe) != 0 || log_pipe[0] != 3) return 1;
    pthread_t l, a, b, c;
    pthread_create(&l, NULL, logger, NULL);
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    closefrom(3); // RACE
    pthread_join(l, NULL);
    pthread_create(&c, NULL, closer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    const int fd = open("/dev/null", O_RDONLY);
    printf("total %ld, first descriptor %d\n", total, fd);
    return fd == 3 ? 0 : 1;
}
