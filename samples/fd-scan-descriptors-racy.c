// fd-scan-descriptors.c, but a logger writes to a pipe while main takes over (and closes) every
// descriptor it lists, the pipe's included (the close is a write of the descriptor, unordered
// with the logger's use), and the adders add without the lock. (The closes are a pass of their
// own after a locked progress count, so that the dup2s' reads of the numbers are not in the
// closing event. Main waits on a relaxed flag, which orders nothing, until the logger has
// written: under load the logger otherwise wrote after the close, a failed write of a closed
// descriptor, and the race came and went between runs.)
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once
static int log_pipe[2];
static atomic_int logged;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
    return NULL;
}

static void* logger(void* arg) {
    (void)arg;
    write(log_pipe[1], "started\n", 8); // RACE
    atomic_store_explicit(&logged, 1, memory_order_relaxed);
    return NULL;
}

// The open descriptors above stderr (not the listing's own), at most 64.
static int list_descriptors(int* fds) {
    DIR* d = opendir("/proc/self/fd");
    if (d == NULL) return 0;
    int n = 0;
    for (struct dirent* e; (e = readdir(d)) != NULL && n < 64;) {
        const int fd = atoi(e->d_name);
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd > 2 && fd != dirfd(d)) fds[n++] = fd;
    }
    closedir(d);
    return n;
}

static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static int passes;

static void pass_done(void) {
    pthread_mutex_lock(&progress_lock);
    ++passes;
    pthread_mutex_unlock(&progress_lock);
}

// Points each listed number at /dev/null three ways, checks, then closes them all; 0 when all
// went right.
static int take_over(const int* fds, int n) {
    const int null = open("/dev/null", O_RDONLY);
    if (null < 0) return 1;
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        if (fds[i] == null) continue;
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        char c;
        if (dup2(null, fds[i]) != fds[i] || read(fds[i], &c, 1) != 0) ++wrong;
        if (dup3(null, fds[i], O_CLOEXEC) != fds[i] || fcntl(fds[i], F_GETFD) != FD_CLOEXEC)
            ++wrong;
        if (syscall(SYS_dup2, null, fds[i]) != fds[i] || read(fds[i], &c, 1) != 0) ++wrong;
    }
    pass_done();
    while (!atomic_load_explicit(&logged, memory_order_relaxed))
        sched_yield();
    for (int i = 0; i < n; ++i)
        if (fds[i] != null && close(fds[i]) != 0) ++wrong; // RACE
    close(null);
    return wrong;
}

int main(void) {
    if (pipe(log_pipe) != 0) return 1;
    pthread_t a, b, c, l;
    pthread_create(&l, NULL, logger, NULL);
    pthread_create(&a, NULL, adder, (void*)1);
    int fds[64];
    const int n = list_descriptors(fds);
    const int wrong = take_over(fds, n);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&c, NULL, adder, (void*)3);
    pthread_join(l, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("total %ld, %d descriptors taken over, %d wrong\n", total, n, wrong);
    return wrong == 0 ? 0 : 1;
}
