// Execs that the kernel refuses only after its first checks, while two adders count under a
// mutex: a file the program writes itself, executable but of no known format and without `#!`
// (execv: ENOEXEC), and the same file while it is open for writing (ETXTBSY). The runtime
// finishes the trace before each (it cannot foresee the failure) and takes it up again when the
// exec returns; before, the program ran on untraced after the first one: the counting after it
// and the fork child were lost. No race.
// PROCESS-TRACES: 2 (the program, its fork child)
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void count_with_threads(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

// The execs, while the adders run: each fails with the error the kernel gives.
static int failed_execs(void) {
    char path[] = "/tmp/firstrace-noexec-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return 1;
    static const char garbage[] = "\x01\x02 not a program \x03\x04\n";
    if (write(fd, garbage, sizeof garbage) != (ssize_t)sizeof garbage || fchmod(fd, 0755) != 0)
        return 2;
    char* argv[] = {path, NULL};
    execv(path, argv); // open for writing
    if (errno != ETXTBSY) return 3;
    close(fd);
    execv(path, argv); // no known format
    const int error = errno;
    unlink(path);
    return error == ENOEXEC ? 0 : 4;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    const int failed = failed_execs();
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (failed != 0) return 10 + failed;
    count_with_threads();
    const pid_t child = fork();
    if (child == 0) {
        count_with_threads();
        _exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 6;
    printf("%ld\n", total);
    return 0;
}
