// libc-file-trees with the stream read without the mutex: both workers' fts_read calls write the
// one stream unordered (glibc's fts is not thread-safe on one stream) and each worker's reads of
// its entry race with the other's next fts_read, which reuses the stream's path buffer. Before,
// the runtime saw none of it (glibc's own code) and missed every race.
#define _GNU_SOURCE
#include <fcntl.h>
#include <fts.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t both;
static FTS* walk;

static void* worker(void* arg) {
    long seen = 0;
    pthread_barrier_wait(&both);
    const FTSENT* e = fts_read(walk);      // RACE BUG in worker
    if (e != NULL) seen += e->fts_path[0]; // RACE?
    return (void*)seen;
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
    walk = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL); // ALLOC
    pthread_barrier_init(&both, NULL, 2);
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
    return 0;
}
