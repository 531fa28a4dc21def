// Lists the C library allocates and a tree it keeps in the program's nodes (XSH scandir, glob,
// tsearch): scandir stores *namelist, the array and each entry, glob the glob_t and its paths
// (writes by the caller, in blocks that are the caller's allocations); tsearch changes the tree
// behind its root pointer in place (glibc rebalances it), so the root stands for the tree.
// Two workers fill their own lists and glob into a shared glob_t, insert into a shared tree and
// look names up in it, all under a mutex; main frees the lists after joining. The racy variant
// drops the mutex (before, the runtime saw none of these stores and missed every race).
#define _GNU_SOURCE
#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
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
    pthread_mutex_lock(&lock);
    if (found.gl_pathc != 0) globfree(&found);
    glob("/proc/self/s*", 0, NULL, &found);
    tsearch(me != 0 ? "beta" : "alpha", &names, by_name);
    const int known = tfind("alpha", &names, by_name) != NULL;
    pthread_mutex_unlock(&lock);
    return (void*)(long)known;
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
