// libc-lists-trees without the mutex: one worker globs into the shared glob_t and looks a name
// up in the shared tree while the other reads the glob_t and inserts into the tree, unordered
// (before, the runtime saw none of these stores and missed both races; clang 14
// ThreadSanitizer reports the glob one).
#define _GNU_SOURCE
#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t both;
static struct dirent** listed[2];
static int counts[2];
static glob_t found;
static void* names;

static int by_name(const void* a, const void* b) {
    return strcmp(a, b);
}

static void keep(void* key) {
    (void)key; // the keys are string literals
}

static void* worker(void* arg) {
    const int me = arg != NULL;
    pthread_barrier_wait(&both);
    counts[me] = scandir("/", &listed[me], NULL, alphasort); // its own list: no lock
    if (me == 0) {
        glob("/proc/self/s*", 0, NULL, &found);                       // RACE BUG in worker
        return (void*)(long)(tfind("beta", &names, by_name) != NULL); // RACE
    }
    const size_t paths = found.gl_pathc; // RACE
    tsearch("beta", &names, by_name);    // RACE
    return (void*)paths;
}

int main(void) {
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, i != 0 ? &t : NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %zu\n", counts[0], counts[1], found.gl_pathc);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < counts[i]; ++j)
            free(listed[i][j]);
        free(listed[i]);
    }
    globfree(&found);
    tdestroy(names, keep);
    return 0;
}
