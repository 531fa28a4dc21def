// A file hierarchy walk with <fts.h> (rt_libc_file_trees.cpp): main makes a directory with a few
// files and opens one walk of it; two workers take turns reading the walk's entries under a
// mutex, reading each entry's name and path before giving the mutex up (the entry lives in the
// stream until the next fts_read), and main closes the walk after joining them. The racy variant
// reads the stream without the mutex.
#define _GNU_SOURCE
#include <fcntl.h>
#include <fts.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FTS* walk;
static long seen;

static void* worker(void* arg) {
    for (;;) {
        pthread_mutex_lock(&lock);
        const FTSENT* e = fts_read(walk);
        if (e == NULL) {
            pthread_mutex_unlock(&lock);
            return arg;
        }
        seen += e->fts_name[0] + e->fts_path[0] + e->fts_level;
        pthread_mutex_unlock(&lock);
    }
}

int main(void) {
    char dir[] = "/tmp/frt-fts-XXXXXX";
    if (mkdtemp(dir) == NULL) return 1;
    char path[64];
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s/file%d", dir, i);
        close(open(path, O_CREAT | O_WRONLY, 0600));
    }
    char* const roots[] = {dir, NULL};
    walk = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    fts_close(walk);
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s/file%d", dir, i);
        unlink(path);
    }
    rmdir(dir);
    printf("%ld\n", seen > 0);
    return 0;
}
