// Returns from main while other threads are still there. `blocked`: threads wait, at exit, in
// calls that never return while every signal is blocked or their mask is replaced by a full one:
// a read after pthread_sigmask blocked everything; sigsuspend with every signal blocked but one
// never sent; pselect, ppoll, epoll_pwait, epoll_pwait2 with a full mask; sigtimedwait for every
// signal with every signal blocked; a read after syscall(SYS_rt_sigprocmask) blocked everything;
// syscall(SYS_rt_sigsuspend) and syscall(SYS_ppoll) with a full mask. The runtime keeps its exit
// flush signal out of those masks and sets, so every thread ends its stream at exit: the trace
// is complete (exit() ends every thread, and those did all they were going to do before the
// call), not truncated. Each thread writes its `seen` slot first (an open event to close).
// `unreachable`: one more thread blocks every signal with the system call instruction itself
// (nothing can see that) and keeps writing: its open event is lost at exit, so the trace is
// truncated and says which thread was still running.
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <unistd.h>

static int never_written[2];
static int epoll_fd;
static volatile int seen[16];
static volatile int waiting;
static volatile int spun[64];
static volatile int started;

static void about_to_wait(int i) {
    seen[i] += 1;
    __atomic_fetch_add(&waiting, 1, __ATOMIC_RELAXED);
}

static void* in_pselect(void* arg) {
    sigset_t all;
    sigfillset(&all);
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(never_written[0], &readable);
    about_to_wait(0);
    pselect(never_written[0] + 1, &readable, NULL, NULL, NULL, &all);
    return arg;
}

static void* in_ppoll(void* arg) {
    sigset_t all;
    sigfillset(&all);
    struct pollfd p = {never_written[0], POLLIN, 0};
    about_to_wait(1);
    ppoll(&p, 1, NULL, &all);
    return arg;
}

static void* in_epoll_pwait(void* arg) {
    sigset_t all;
    sigfillset(&all);
    struct epoll_event e;
    about_to_wait(2);
    epoll_pwait(epoll_fd, &e, 1, -1, &all);
    return arg;
}

static void* in_epoll_pwait2(void* arg) {
    sigset_t all;
    sigfillset(&all);
    struct epoll_event e;
    about_to_wait(3);
    epoll_pwait2(epoll_fd, &e, 1, NULL, &all);
    return arg;
}

static void* in_sigtimedwait(void* arg) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    siginfo_t info;
    about_to_wait(4);
    sigtimedwait(&all, &info, NULL); // only SIGUSR2 may come: never sent
    return arg;
}

static void* raw_masked_read(void* arg) {
    sigset_t all;
    sigfillset(&all);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, _NSIG / 8);
    char byte;
    about_to_wait(5);
    if (read(never_written[0], &byte, 1) < 0) return NULL;
    return arg;
}

static void* raw_sigsuspend(void* arg) {
    unsigned long all_but_usr2 = ~(1ul << (SIGUSR2 - 1)); // the kernel's set: one bit per signal
    about_to_wait(6);
    syscall(SYS_rt_sigsuspend, &all_but_usr2, sizeof all_but_usr2);
    return arg;
}

static void* raw_ppoll(void* arg) {
    unsigned long all = ~0ul;
    struct pollfd p = {never_written[0], POLLIN, 0};
    about_to_wait(7);
    syscall(SYS_ppoll, &p, 1, NULL, &all, sizeof all);
    return arg;
}

static void* blocked_in_read(void* arg) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    char byte;
    about_to_wait(8);
    if (read(never_written[0], &byte, 1) < 0) return NULL;
    return arg;
}

static void* suspended(void* arg) {
    sigset_t all_but_usr2;
    sigfillset(&all_but_usr2);
    sigdelset(&all_but_usr2, SIGUSR2);
    about_to_wait(9);
    sigsuspend(&all_but_usr2);
    return arg;
}

static void* unreachable_spinner(void* arg) {
    unsigned long all = ~0ul; // the kernel's signal set
    register long size __asm__("r10") = sizeof all;
    long r;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "0"((long)SYS_rt_sigprocmask), "D"((long)SIG_BLOCK), "S"(&all), "d"(0L),
                       "r"(size)
                     : "rcx", "r11", "memory");
    (void)r;
    started = 1;
    for (;;)
        for (int i = 0; i < 64; ++i)
            spun[i] += 1;
    return arg;
}

int main(int argc, char** argv) {
    if (pipe(never_written) != 0) return 1;
    epoll_fd = epoll_create1(0);
    struct epoll_event e = {.events = EPOLLIN};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, never_written[0], &e);
    void* (*waits[])(void*) = {in_pselect,      in_ppoll,        in_epoll_pwait, in_epoll_pwait2,
                               in_sigtimedwait, raw_masked_read, raw_sigsuspend, raw_ppoll,
                               blocked_in_read, suspended};
    const int n = sizeof waits / sizeof waits[0];
    pthread_t t;
    for (int i = 0; i < n; ++i)
        pthread_create(&t, NULL, waits[i], NULL);
    if (argc > 1 && strcmp(argv[1], "unreachable") == 0) {
        pthread_create(&t, NULL, unreachable_spinner, NULL);
        while (!started)
            usleep(1000);
    }
    while (__atomic_load_n(&waiting, __ATOMIC_RELAXED) < n)
        usleep(1000);
    usleep(20000); // every thread is in its call by then
    return 0;
}
