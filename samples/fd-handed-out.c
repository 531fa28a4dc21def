// Descriptor numbers that a thread closes are handed out again, to main, by calls other than
// open: memfd_create, inotify_init1, posix_openpt, pidfd_open. Each is a new incarnation of its
// number, so main's uses of it do not race with the other thread's close of the old one (main
// learns of the close through a relaxed flag only).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <unistd.h>

static int fds[4];
static atomic_int closed;

static void* closer(void* arg) {
    (void)arg;
    for (int i = 0; i < 4; ++i) {
        char c;
        if (read(fds[i], &c, 0) < 0) break;
        close(fds[i]);
    }
    atomic_store_explicit(&closed, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    for (int i = 0; i < 4; ++i)
        fds[i] = open("/dev/null", O_RDONLY);
    pthread_t t;
    pthread_create(&t, NULL, closer, NULL);
    while (!atomic_load_explicit(&closed, memory_order_relaxed))
        usleep(100);
    // The kernel gives out the lowest free numbers: the ones the closer just closed.
    int memory = memfd_create("fd-handed-out", 0);
    int watch = inotify_init1(IN_NONBLOCK);
    int terminal = posix_openpt(O_RDWR | O_NOCTTY);
    int process = pidfd_open(getpid(), 0);
    char c = 0;
    if (write(memory, "x", 1) != 1 || pread(memory, &c, 1, 0) != 1) return 1;
    char events[64];
    const ssize_t none = read(watch, events, sizeof events); // no event: EAGAIN
    fcntl(terminal, F_GETFL);
    fcntl(process, F_GETFD);
    pthread_join(t, NULL);
    close(memory);
    close(watch);
    if (terminal >= 0) close(terminal);
    if (process >= 0) close(process);
    printf("%c %zd\n", c, none);
    return 0;
}
