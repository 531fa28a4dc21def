// libc-search-fill.c without the mutex on three buffers: the worker's snprintf, bzero and
// wmemset write what main's memchr, mempcpy and wcslen read at the same time.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

static char text[64] = "round -1: key=value;";
static char block[32] = "abcd";
static wchar_t wide[16] = L"abc";
static atomic_int started;

static void* worker(void* arg) {
    (void)arg;
    atomic_store_explicit(&started, 1, memory_order_relaxed);
    snprintf(text, sizeof text, "round %d: key=value;", 1); // RACE
    bzero(block, sizeof block);                             // RACE
    wmemset(wide, L'x', 8);                                 // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&started, memory_order_relaxed)) {
    }
    long found = memchr(text, '=', sizeof text) != NULL; // RACE
    char copy[8];
    char* end = mempcpy(copy, block, 4); // RACE
    *end = 0;
    found += copy[0] == 'a';
    found += (long)wcslen(wide); // RACE
    pthread_join(t, NULL);
    printf("%ld\n", found);
    return 0;
}
