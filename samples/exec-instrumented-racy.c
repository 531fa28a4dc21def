// exec-instrumented.c, but the worker (this program exec'd by the helper, which a fork child
// exec'd) counts without the lock: the race is in the worker's trace, exec-<pid>/exec-<pid>
// inside the program's; `firstrace analyze` of the program's trace reports it.
// PROCESS-TRACES: 5 (the program, two fork children, the helper, the worker)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
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

// fork + exec, then the child's exit status
static int run(const char* path, const char* arg) {
    const pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        execl(path, path, arg, (char*)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(child, &status, 0) != child) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "helper") == 0) {
        execl("/proc/self/exe", argv[0], "worker", (char*)NULL);
        return 126;
    }
    if (argc > 1 && strcmp(argv[1], "worker") == 0) {
        count_with_threads(unlocked_adder);
        return 0;
    }
    count_with_threads(adder);
    if (run("/bin/true", "ignored") != 0) return 2;
    if (run("/proc/self/exe", "helper") != 0) return 3;
    printf("%ld\n", total);
    return 0;
}
