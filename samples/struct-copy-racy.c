// Whole-struct copies (compiled to memcpy/memset calls, which clang does not instrument: the
// runtime intercepts them): a worker publishes a configuration by copying a struct while the
// main thread copies it out, with no synchronization between them.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Config {
    char name[200];
    int values[16];
};
static struct Config shared;

static void* publish(void* arg) {
    (void)arg;
    struct Config local;
    memset(&local, 0, sizeof local); // RACE-IF-OPTIMIZED: clang -O1 zeroes `shared`'s tail here
    strcpy(local.name, "tuned");
    local.values[3] = 42;
    shared = local; // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, publish, NULL);
    struct Config seen = shared; // RACE
    pthread_join(t, NULL);
    printf("%s %d\n", seen.name, seen.values[3]);
    return 0;
}
