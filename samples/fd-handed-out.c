// Descriptor numbers that a thread closes are handed out again, to main, by calls other than
// open: memfd_create, inotify_init1, posix_openpt, pidfd_open, and a recvmsg's SCM_RIGHTS. Each is
// a new incarnation of its number, so main's uses of it do not race with the other thread's close
// of the old one (main learns of the close through a relaxed flag only).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int fds[5];
static atomic_int closed;

static void* closer(void* arg) {
    (void)arg;
    for (int i = 0; i < 5; ++i) {
        char c;
        if (read(fds[i], &c, 0) < 0) break;
        close(fds[i]);
    }
    atomic_store_explicit(&closed, 1, memory_order_relaxed);
    return NULL;
}

// Sends fd over the socket pair and returns the descriptor the receiving end got for it.
static int received_copy(const int pair[2], int fd) {
    char byte = 'x';
    struct iovec iov = {&byte, 1};
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    struct msghdr m = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    struct cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    if (sendmsg(pair[0], &m, 0) != 1) return -1;
    m.msg_controllen = sizeof control;
    if (recvmsg(pair[1], &m, 0) != 1 || CMSG_FIRSTHDR(&m) == NULL) return -1;
    int got;
    memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof got);
    return got;
}

int main(void) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return 1;
    int zero = open("/dev/zero", O_RDONLY);
    for (int i = 0; i < 5; ++i)
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
    int passed = received_copy(pair, zero); // SCM_RIGHTS
    char c = 0;
    if (write(memory, "x", 1) != 1 || pread(memory, &c, 1, 0) != 1) return 1;
    char events[64];
    const ssize_t none = read(watch, events, sizeof events); // no event: EAGAIN
    fcntl(terminal, F_GETFL);
    fcntl(process, F_GETFD);
    char zero_byte = 1;
    if (read(passed, &zero_byte, 1) != 1) return 1;
    pthread_join(t, NULL);
    close(memory);
    close(watch);
    if (terminal >= 0) close(terminal);
    if (process >= 0) close(process);
    close(passed);
    close(zero);
    close(pair[0]);
    close(pair[1]);
    printf("%c %zd\n", c, none);
    return 0;
}
