// libc-path-parts without the mutex: the two workers split the shared path unordered (dirname
// reads the whole path and stores a terminator into it; libgen.h's basename the same for a
// trailing slash), and both store the terminal's name into ctermid's static buffer. Before, the
// runtime saw none of it (glibc's own string code); clang 14 ThreadSanitizer reports none.
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_barrier_t both;
static char path[64] = "/usr/share/doc/";
static char tail[64] = "/var/log/";

static void* worker(void* arg) {
    pthread_barrier_wait(&both);
    const char* dir = dirname(path);                      // RACE BUG in worker NAMED path
    const char* base = basename(tail);                    // RACE
    const char* terminal = ctermid(NULL);                 // RACE
    return (void*)(long)(dir[0] + base[0] + terminal[0]); // RACE?
}

int main(void) {
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s\n", path, tail);
    return 0;
}
