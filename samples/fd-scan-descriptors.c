// A program that takes over every descriptor it finds open, as programs that sanitize their
// descriptors before spawning children do: it lists /proc/self/fd while a thread runs, marks
// each number close-on-exec (fcntl), points it at /dev/null with dup2, dup3 and a raw
// syscall(SYS_dup2), checks that the number now reads /dev/null, and closes it. Among the
// numbers listed are the runtime's own (trace directory, metadata, streams): its fcntl of them
// fails with EBADF (not open, for the program), and a dup2/dup3 onto one first moves the
// runtime's descriptor to another number, then does what the program asked. Adders started
// before and after count under a lock. No race. (The dup2s once replaced the trace's files.)
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
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

// Points each listed number at /dev/null three ways, checks, closes it; 0 when all went right.
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
        if (close(fds[i]) != 0) ++wrong;
    }
    close(null);
    return wrong;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, NULL, adder, (void*)1);
    int fds[64];
    const int n = list_descriptors(fds);
    const int wrong = take_over(fds, n);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&c, NULL, adder, (void*)3);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("total %ld, %d descriptors taken over, %d wrong\n", total, n, wrong);
    return total == 6000 && wrong == 0 ? 0 : 1;
}
