// libc-results.c without the mutex: the worker's localtime_r, stat, rand_r and the write of
// the number's text race with main's reads of the struct tm and the struct stat, its rand_r
// of the same seed and its strtol of the text.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static struct tm shared_tm;
static struct stat shared_st;
static unsigned seed = 1;
static char number[32] = "17";
static atomic_int started;

static void* worker(void* arg) {
    (void)arg;
    const time_t now = 1000000;
    atomic_store_explicit(&started, 1, memory_order_relaxed);
    localtime_r(&now, &shared_tm); // RACE
    stat("/", &shared_st);         // RACE
    rand_r(&seed);                 // RACE
    number[0] = '4';               // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&started, memory_order_relaxed)) {
    }
    const int year = shared_tm.tm_year;        // RACE
    const long size = (long)shared_st.st_size; // RACE
    const int r = rand_r(&seed);               // RACE
    const long n = strtol(number, NULL, 10);   // RACE
    pthread_join(t, NULL);
    printf("%d %ld %d %ld\n", year, size, r % 2, n);
    return 0;
}
