// Raw system calls announced with the hooks of <sanitizer/linux_syscall_hooks.h> (clang ships the
// header; firstrace-cc gives gcc its own, written from the hooks the runtime defines): records
// handed over through a pipe made, written, read and closed with syscall(), and a child made with
// the fork system call. The runtime takes the hooked calls' steps as for the libc calls: a write
// orders the read that receives it, the bytes read are written into the buffer, and the raw fork's
// child is traced on its own.
//
// PROCESS-TRACES: 2 (the program, the raw fork's child)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sanitizer/linux_syscall_hooks.h>

static long raw_read(int fd, void* buf, long n) {
    __sanitizer_syscall_pre_read(fd, (long)buf, n);
    const long r = syscall(SYS_read, fd, buf, n);
    __sanitizer_syscall_post_read(r, fd, (long)buf, n);
    return r;
}
static long raw_write(int fd, const void* buf, long n) {
    __sanitizer_syscall_pre_write(fd, (long)buf, n);
    const long r = syscall(SYS_write, fd, buf, n);
    __sanitizer_syscall_post_write(r, fd, (long)buf, n);
    return r;
}
static void raw_close(int fd) {
    __sanitizer_syscall_pre_close(fd);
    const long r = syscall(SYS_close, fd);
    __sanitizer_syscall_post_close(r, fd);
}

#define RECORDS 4
static int records[RECORDS];
static int pipe_fds[2];
static int received[RECORDS];

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < RECORDS; ++i) {
        records[i] = i * 10;
        if (raw_write(pipe_fds[1], &i, sizeof i) != sizeof i) return NULL;
    }
    return NULL;
}

int main(void) {
    __sanitizer_syscall_pre_pipe2((long)pipe_fds, 0);
    const long r = syscall(SYS_pipe2, pipe_fds, 0);
    __sanitizer_syscall_post_pipe2(r, (long)pipe_fds, 0);
    if (r != 0) return 1;
    pthread_t p;
    pthread_create(&p, NULL, producer, NULL);
    long total = 0;
    for (int n = 0; n < RECORDS; ++n) {
        if (raw_read(pipe_fds[0], &received[n], sizeof received[n]) != sizeof received[n]) break;
        total += records[received[n]];
    }
    pthread_join(p, NULL);
    raw_close(pipe_fds[0]);
    raw_close(pipe_fds[1]);

    __sanitizer_syscall_pre_fork();
    const long child = syscall(SYS_fork);
    __sanitizer_syscall_post_fork(child);
    if (child == 0) {
        records[0] += 1; // the child's own copy
        _exit(0);
    }
    if (child > 0) waitpid((pid_t)child, NULL, 0);
    printf("%ld\n", total);
    return 0;
}
