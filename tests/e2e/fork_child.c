// A process that forks: the parent is race-free, the child has a race of its own (a thread and
// the child's main thread both write `shared`). `firstrace record` traces the child into
// fork-<pid> inside the parent's trace.
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int shared; // not static: gcc -O1 drops the stores to a write-only static

static void* writer(void* arg) {
    (void)arg;
    shared = 1;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    pthread_join(t, NULL);
    const pid_t child = fork();
    if (child == 0) {
        pthread_create(&t, NULL, writer, NULL);
        shared = 5; // races with the child's writer
        pthread_join(t, NULL);
        printf("child %d\n", shared);
        return 0;
    }
    waitpid(child, NULL, 0);
    shared = 2;
    printf("%d\n", shared);
    return 0;
}
