// exec-raw-syscall.c, but the adders' second round counts without the lock (found only if the
// trace goes on after the failed raw execve and is finished before the raw execveat).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char** environ;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long total; // volatile: else optimized code adds in a register, stores once
static sem_t counted, go_on, never;

static void* adder(void* arg) {
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 1000; ++i) {
            if (round == 1) {
                total += (long)arg; // RACE
                continue;
            }
            pthread_mutex_lock(&lock);
            total += (long)arg;
            pthread_mutex_unlock(&lock);
        }
        sem_post(&counted);
        sem_wait(round == 0 ? &go_on : &never); // never: until the exec ends the threads
    }
    return NULL;
}

// A file with exec permission that is no program: the kernel refuses it only after its checks.
static int failed_raw_execve(void) {
    char path[] = "/tmp/firstrace-raw-exec-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return 1;
    static const char garbage[] = "\x01\x02 not a program \x03\x04\n";
    const int written = write(fd, garbage, sizeof garbage) == (ssize_t)sizeof garbage;
    if (fchmod(fd, 0755) != 0 || close(fd) != 0 || !written) return 2;
    char* argv[] = {path, NULL};
    const long r = syscall(SYS_execve, path, argv, environ);
    const int error = errno;
    unlink(path);
    return r == -1 && error == ENOEXEC ? 0 : 3;
}

static void* replacer(void* arg) {
    (void)arg;
    sem_wait(&counted);
    sem_wait(&counted);
    if (failed_raw_execve() != 0) _exit(2);
    sem_post(&go_on);
    sem_post(&go_on);
    sem_wait(&counted);
    sem_wait(&counted);
    // (no check of the total: the racy round may lose additions)
    char* argv[] = {"true", NULL};
    syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, environ, 0);
    _exit(4); // the exec failed
}

int main(void) {
    sem_init(&counted, 0, 0);
    sem_init(&go_on, 0, 0);
    sem_init(&never, 0, 0);
    pthread_t a, b, r;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&r, NULL, replacer, NULL);
    pthread_join(r, NULL); // never returns: the exec replaces the process
    return 5;
}
