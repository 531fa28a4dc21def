// A traced program runs instrumented programs: a fork child execs this program again as a
// helper (`helper`), which execs itself once more in place (`worker`, the same process: an
// exec chain); the worker counts with two threads under a mutex. A fork child also execs
// /bin/true, which is not instrumented and not traced. An instrumented program started while
// the trace directory is another process's traces into exec-<pid> inside it (the second image
// of one process into exec-<pid>/exec-<pid>): before, it said "another traced process writes
// there; not tracing" on stderr and its races were not found. No race.
// PROCESS-TRACES: 5 (the program, two fork children, the helper, the worker)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
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

static int count_with_threads(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return total == 3000 ? 0 : 1;
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
    if (argc > 1 && strcmp(argv[1], "worker") == 0) return count_with_threads();
    if (count_with_threads() != 0) return 1;
    if (run("/bin/true", "ignored") != 0) return 2;
    if (run("/proc/self/exe", "helper") != 0) return 3;
    printf("%ld\n", total);
    return 0;
}
