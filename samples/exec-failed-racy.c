// exec-failed.c, but after the failed execs the adders count without the lock (the race is
// found only if the program is still traced after them: before, the first failed exec ended
// the trace).
// PROCESS-TRACES: 2 (the program, its fork child)
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void* unlocked_adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
    return NULL;
}

static void count_with_threads(void* (*add)(void*)) {
    pthread_t a, b;
    pthread_create(&a, NULL, add, (void*)1);
    pthread_create(&b, NULL, add, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

// The execs, while the adders run: each fails with the error the kernel gives.
static int failed_execs(void) {
    char* argv[] = {"firstrace-no-such-program", NULL};
    execv("/nonexistent/firstrace-no-such-program", argv);
    if (errno != ENOENT) return 1;
    execvp("firstrace-no-such-program", argv);
    if (errno != ENOENT) return 2;
    execl("/", "/", (char*)NULL);
    if (errno != EACCES) return 3;
    execl("/dev/null", "null", (char*)NULL);
    if (errno != EACCES) return 4;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    const int failed = failed_execs();
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (failed != 0) return failed;
    count_with_threads(unlocked_adder);
    const pid_t child = fork();
    if (child == 0) {
        count_with_threads(adder);
        _exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 6;
    printf("%ld\n", total);
    return 0;
}
