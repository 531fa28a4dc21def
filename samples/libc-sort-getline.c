// qsort, qsort_r, bsearch and getline on data threads hand over through pthread_join and a
// mutex: a worker sorts a shared array (qsort writes the whole array, rt_libc_memory.cpp) and
// main searches it after joining; two threads read lines from their own streams with getline
// into one shared buffer, which getline reallocates, taking turns under a mutex.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int numbers[64];
static char* line;
static size_t capacity;
static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int ascending(const void* a, const void* b) {
    const int x = *(const int*)a, y = *(const int*)b;
    return (x > y) - (x < y);
}
static int by_key(const void* a, const void* b, void* order) {
    const int x = *(const int*)a, y = *(const int*)b;
    return *(int*)order * ((x > y) - (x < y));
}

static void read_lines(const char* text) {
    FILE* f = fmemopen((void*)text, strlen(text), "r");
    if (f == NULL) return;
    pthread_mutex_lock(&lock);
    ssize_t n;
    while ((n = getline(&line, &capacity, f)) > 0)
        total += n + line[0];
    pthread_mutex_unlock(&lock);
    fclose(f);
}

static void* sorter(void* arg) {
    (void)arg;
    int descending = -1;
    qsort_r(numbers, 64, sizeof numbers[0], by_key, &descending);
    qsort(numbers, 64, sizeof numbers[0], ascending);
    read_lines("first line\na much longer second line that needs a bigger buffer\n");
    return NULL;
}

int main(void) {
    for (int i = 0; i < 64; ++i)
        numbers[i] = (i * 37) % 64;
    pthread_t t;
    pthread_create(&t, NULL, sorter, NULL);
    read_lines("main's line\n");
    pthread_join(t, NULL);
    const int key = 42;
    const int* hit = bsearch(&key, numbers, 64, sizeof numbers[0], ascending);
    printf("%d %ld\n", hit != NULL ? *hit : -1, total);
    free(line);
    return 0;
}
