// execs made through syscall() rather than the C library's functions: a raw execve of a file
// the program wrote itself (no known format: ENOEXEC) fails while two adders count under a
// lock, then, once the adders counted again and blocked, a raw execveat of /bin/true replaces
// the program. The runtime routes both as the libc calls: the trace is finished before each,
// taken up again after the failed one, and ends with the end line `exec`. No race. (Before, a
// raw exec went past the runtime: no end line, every thread's unflushed records lost.) The exit
// status is /bin/true's.
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
static long total;
static sem_t counted, go_on, never;

static void* adder(void* arg) {
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 1000; ++i) {
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
    pthread_mutex_lock(&lock);
    const long seen = total;
    pthread_mutex_unlock(&lock);
    if (seen != 6000) _exit(3);
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
