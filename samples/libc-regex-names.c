// Regular expressions and names in static buffers (rt_libc_regex.cpp, rt_libc_shared_state.cpp,
// rt_libc_memory.cpp): main compiles a pattern once and four workers match lines against it at
// the same time (regexec only reads the regex_t: thread-safe by POSIX), each into its own
// pmatch; tmpnam(NULL) and getlogin (static buffers) are called under a mutex, perror prints a
// message the worker built under it; main frees the pattern after the joins. No race.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static regex_t pattern;
static char message[64];
static char names[4][64];
static int matches[4];

static void* worker(void* arg) {
    const long id = (long)arg;
    static const char* lines[] = {"key=value", "no match here", "other=thing", "x=1"};
    for (int i = 0; i < 4; ++i) {
        regmatch_t m[3];
        if (regexec(&pattern, lines[(id + i) % 4], 3, m, 0) == 0) matches[id] += (int)m[1].rm_eo;
    }
    pthread_mutex_lock(&lock);
    char* name = tmpnam(NULL);
    if (name != NULL) snprintf(names[id], sizeof names[id], "%s", name);
    const char* login = getlogin();
    snprintf(message, sizeof message, "worker %ld (%s)", id, login != NULL ? "login" : "none");
    errno = 0;
    perror(message);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    if (regcomp(&pattern, "^([a-z]+)=([a-z0-9]+)$", REG_EXTENDED) != 0) return 1;
    pthread_t t[4];
    for (long i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    regfree(&pattern);
    char error_text[64];
    regerror(REG_NOMATCH, NULL, error_text, sizeof error_text);
    printf("%d %d %d %s\n", matches[0], matches[3], strlen(names[1]) > 0, error_text);
    return 0;
}
