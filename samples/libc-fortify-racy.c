// BUILD-FLAGS: -D_FORTIFY_SOURCE=2
// libc-fortify.c without the mutex: the worker's __strcpy_chk, __memcpy_chk and __fgets_chk
// (strcpy, memcpy and fgets in the source, checked forms at -O1/-O2) store into the record while
// main reads it.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static struct {
    char name[32];
    char padding[16];
    char text[64];
} record;
static volatile size_t copy_size = 8;
static char source[32] = "fortified";
static atomic_int done;

static void* worker(void* arg) {
    FILE* input = arg;
    strcpy(record.name, source);                               // RACE
    memcpy(record.padding, source, copy_size);                 // RACE
    if (fgets(record.text, sizeof record.text, input) == NULL) // RACE
        record.text[0] = 0;
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    FILE* input = tmpfile();
    if (input == NULL) return 1;
    fputs("a line of input\n", input);
    rewind(input);
    pthread_t t;
    pthread_create(&t, NULL, worker, input);
    while (!atomic_load_explicit(&done, memory_order_relaxed)) {
    }
    const size_t n = strlen(record.name); // RACE
    const char c = record.padding[1];     // RACE
    const size_t m = strlen(record.text); // RACE
    pthread_join(t, NULL);
    fclose(input);
    printf("%zu %d %zu\n", n, c, m);
    return 0;
}
