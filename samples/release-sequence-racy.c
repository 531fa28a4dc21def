// Where release sequences end, and what a release RMW does not do (C11 7.17.4, C++20
// [intro.races]).
//  1. A release store, then a relaxed (plain) store by another thread: the release sequence
//     ends at the plain store, so main's acquire load that reads it synchronizes with nobody
//     and the producer's write of `data` races with main's read.
//  2. A release RMW is not an acquire: the second worker waits (relaxed) for the first one's
//     release fetch_add, does its own release fetch_add, and reads what the first wrote:
//     nothing orders the two.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int data;
static atomic_int flag;
static int shared;
static atomic_int count;

static void* producer(void* arg) {
    (void)arg;
    data = 42; // RACE
    atomic_store_explicit(&flag, 1, memory_order_release);
    return NULL;
}

static void* overwriter(void* arg) {
    (void)arg;
    while (atomic_load_explicit(&flag, memory_order_relaxed) == 0) {
    }
    atomic_store_explicit(&flag, 2, memory_order_relaxed); // ends the release sequence
    return NULL;
}

static void* first(void* arg) {
    (void)arg;
    shared = 7; // RACE
    atomic_fetch_add_explicit(&count, 1, memory_order_release);
    return NULL;
}

static void* second(void* arg) {
    while (atomic_load_explicit(&count, memory_order_relaxed) == 0) {
    }
    atomic_fetch_add_explicit(&count, 1, memory_order_release); // releases, acquires nothing
    *(int*)arg = shared; // RACE
    return NULL;
}

int main(void) {
    pthread_t p, o, a, b;
    int seen = 0;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&o, NULL, overwriter, NULL);
    pthread_create(&a, NULL, first, NULL);
    pthread_create(&b, NULL, second, &seen);

    while (atomic_load_explicit(&flag, memory_order_relaxed) != 2) {
    }
    if (atomic_load_explicit(&flag, memory_order_acquire) == 2) // reads the relaxed store
        printf("data %d\n", data); // RACE

    pthread_join(p, NULL);
    pthread_join(o, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("seen %d\n", seen);
    return 0;
}
