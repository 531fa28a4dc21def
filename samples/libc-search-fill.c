// C library calls whose memory effects the runtime records (rt_libc_memory.cpp), on buffers two
// threads share under a mutex: a worker formats text with snprintf/sprintf, clears and fills
// blocks with bzero/explicit_bzero/mempcpy, fills wide strings with wmemset/wmemcpy; main
// searches the text (memchr, memrchr, rawmemchr, strchrnul, strpbrk, strspn, strcspn, memmem),
// copies the block and measures the wide string. Every call is under the lock: no race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char text[64];
static char block[32];
static wchar_t wide[16];
static int produced;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int consumed;

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        while (consumed < i)
            pthread_cond_wait(&changed, &lock);
        snprintf(text, sizeof text, "round %d: key=value;", i);
        char tail[16];
        sprintf(tail, "#%d", i);
        strcat(text, tail);
        bzero(block, sizeof block);
        explicit_bzero(block + 16, 16);
        char* end = mempcpy(block, "abc", 3);
        *end = 'd';
        wmemset(wide, L'x', 8);
        wide[8] = 0;
        wchar_t copy[4] = {L'a', L'b', L'c', 0};
        wmemcpy(wide, copy, 3);
        produced = i + 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    long found = 0;
    pthread_mutex_lock(&lock);
    for (int seen = 0; seen < 3;) {
        while (produced == seen)
            pthread_cond_wait(&changed, &lock);
        seen = produced;
        const size_t n = strlen(text);
        found += memchr(text, '=', n) != NULL;
        found += memrchr(text, ';', n) != NULL;
        found += *(char*)rawmemchr(text, ':') == ':';
        found += *strchrnul(text, '!') == 0;
        found += strpbrk(text, "=;") != NULL;
        found += (long)strspn(text, "abcdefghijklmnopqrstuvwxyz");
        found += (long)strcspn(text, ";");
        found += memmem(text, n, "key", 3) != NULL;
        char copy[8];
        char* end = mempcpy(copy, block, 4);
        *end = 0;
        found += copy[3] == 'd';
        found += (long)wcslen(wide);
        consumed = seen;
        pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("%ld\n", found);
    return 0;
}
