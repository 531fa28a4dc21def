// Raw system calls announced with the hooks of <sanitizer/linux_syscall_hooks.h> (clang ships the
// header; firstrace-cc gives gcc its own, written from the hooks the runtime defines). The reader's
// raw read writes the bytes it receives into `slot`, which main reads without waiting for the
// reader; and main closes the pipe's write end with a raw close (a write of the descriptor)
// unordered with the writer's write to it (main waits for a relaxed flag, which orders nothing, so
// that the write is done before the number can be handed out again).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sanitizer/linux_syscall_hooks.h>

static int pipe_fds[2];
static int slot;
static atomic_int written; // relaxed: orders nothing

static void* reader(void* arg) {
    (void)arg;
    __sanitizer_syscall_pre_read(pipe_fds[0], (long)&slot, sizeof slot);
    const long r = syscall(SYS_read, pipe_fds[0], &slot, sizeof slot);
    __sanitizer_syscall_post_read(r, pipe_fds[0], (long)&slot, sizeof slot); // RACE
    return NULL;
}

static void* writer(void* arg) {
    (void)arg;
    const int value = 42;
    __sanitizer_syscall_pre_write(pipe_fds[1], (long)&value, sizeof value); // RACE
    const long r = syscall(SYS_write, pipe_fds[1], &value, sizeof value);
    __sanitizer_syscall_post_write(r, pipe_fds[1], (long)&value, sizeof value);
    atomic_store_explicit(&written, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    if (pipe(pipe_fds) != 0) return 1;
    pthread_t rd, wr;
    pthread_create(&rd, NULL, reader, NULL);
    pthread_create(&wr, NULL, writer, NULL);
    while (!atomic_load_explicit(&written, memory_order_relaxed)) // (not an ordering)
        usleep(1000);
    printf("%d\n", slot);                       // RACE
    __sanitizer_syscall_pre_close(pipe_fds[1]); // RACE
    syscall(SYS_close, pipe_fds[1]);
    __sanitizer_syscall_post_close(0, pipe_fds[1]);
    pthread_join(rd, NULL);
    pthread_join(wr, NULL);
    close(pipe_fds[0]);
    return 0;
}
