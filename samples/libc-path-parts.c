// Calls that split a path in place or name a path in a static buffer (rt_libc_path_parts.cpp,
// rt_libc_shared_state.cpp): dirname and libgen.h's basename store a terminator into the path
// they are given, ctermid(NULL) writes its static buffer. Two workers split the shared paths and
// ask for the terminal's name under a mutex, and each splits a path of its own without it. The
// racy variant splits the shared ones without the mutex.
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char path[64] = "/usr/share/doc/";
static char tail[64] = "/var/log/";
static long seen;

static void* worker(void* arg) {
    char own[32] = "/etc/ssl/certs/";
    const char* parent = dirname(own);
    pthread_mutex_lock(&lock);
    const char* dir = dirname(path);
    const char* base = basename(tail);
    const char* terminal = ctermid(NULL);
    seen += parent[0] + dir[0] + base[0] + terminal[0];
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s %ld\n", path, tail, seen > 0);
    return 0;
}
