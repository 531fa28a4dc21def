// libc-sort-getline.c where main reads the array while the worker sorts it, and reads the
// shared line buffer's capacity while the worker's getline updates it without the mutex.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int numbers[64];
static char* line;
static size_t capacity;
static atomic_int started;

static int ascending(const void* a, const void* b) {
    // (in the sorting thread's racing event with qsort's write of the array)
    const int x = *(const int*)a, y = *(const int*)b; // RACE
    return (x > y) - (x < y);
}

static void* sorter(void* arg) {
    (void)arg;
    atomic_store_explicit(&started, 1, memory_order_relaxed);
    qsort(numbers, 64, sizeof numbers[0], ascending); // RACE
    const char text[] = "a line\n";
    FILE* f = fmemopen((void*)text, strlen(text), "r");
    if (f != NULL) {
        getline(&line, &capacity, f); // RACE
        fclose(f);
    }
    return NULL;
}

int main(void) {
    for (int i = 0; i < 64; ++i)
        numbers[i] = (i * 37) % 64;
    pthread_t t;
    pthread_create(&t, NULL, sorter, NULL);
    while (!atomic_load_explicit(&started, memory_order_relaxed)) {
    }
    const int middle = numbers[32]; // RACE
    const size_t seen = capacity;   // RACE
    pthread_join(t, NULL);
    printf("%d %zu\n", middle, seen);
    free(line);
    return 0;
}
