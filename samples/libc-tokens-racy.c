// libc-tokens.c without the mutex: the worker's strsep stores a terminator into the shared line
// and moves the shared cursor while main reads both (a relaxed flag orders nothing), and its
// strtok_r shares main's save pointer.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static char line[64] = "alpha,beta,gamma";
static char* cursor = line;
static char other[64] = "one two";
static char* save;
static atomic_int done;

static void* worker(void* arg) {
    (void)arg;
    char* field = strsep(&cursor, ",");       // RACE
    char* word = strtok_r(other, " ", &save); // RACE
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return field != NULL && word != NULL ? field : NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&done, memory_order_relaxed)) {
    }
    const char* at = cursor;                 // RACE
    const size_t n = strlen(line);           // RACE
    char* next = strtok_r(NULL, " ", &save); // RACE
    pthread_join(t, NULL);
    printf("%zu %d %d\n", n, at != NULL, next != NULL);
    return 0;
}
