// stdio-wide-memstream.c with the hand-offs broken: the worker's fputws reads the wide message
// that main rewrites without the mutex, and main reads the open_memstream text pointer and size
// that the worker's fflush stores, after a relaxed flag that orders nothing.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static FILE* shared;
static wchar_t message[32] = L"first";
static char* text;
static size_t size;
static atomic_int flushed;

static void* worker(void* arg) {
    (void)arg;
    fputws(message, shared); // RACE
    FILE* m = open_memstream(&text, &size);
    if (m == NULL) return NULL;
    fprintf(m, "built by a worker");
    fflush(m); // RACE
    atomic_store_explicit(&flushed, 1, memory_order_relaxed);
    fclose(m); // RACE
    return NULL;
}

int main(void) {
    shared = tmpfile();
    if (shared == NULL) return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    swprintf(message, 32, L"second"); // RACE
    while (!atomic_load_explicit(&flushed, memory_order_relaxed)) {
    }
    const size_t seen = size; // RACE
    pthread_join(t, NULL);
    fclose(shared);
    printf("%zu %s\n", seen, text != NULL ? text : "-");
    free(text);
    return 0;
}
