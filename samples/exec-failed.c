// Execs that fail while two adders count under a mutex: no such file (execv, and execvp's
// PATH search), a directory, a device (not executable). The runtime finishes the trace only
// before an exec that replaces the process; before, the first failed exec ended the trace and
// the program ran on untraced: nothing after it was recorded, its fork child not traced. After
// the failed execs the program counts again and forks a child that counts too. No race.
// PROCESS-TRACES: 2 (the program, its fork child)
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
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
    count_with_threads();
    const pid_t child = fork();
    if (child == 0) {
        count_with_threads();
        _exit(total == 9000 ? 0 : 5);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 6;
    printf("%ld\n", total);
    return 0;
}
