// Misuse of a shared stream's lock (POSIX XSH 2.5, flockfile): one worker keeps a count under
// flockfile, the other updates it without the lock; both write with putc_unlocked, one without
// holding the stream (the _unlocked calls take no lock); and main closes the stream while the
// first worker's fgetc is ordered with it by nothing (fclose destroys the FILE: a use of it from
// another thread that nothing orders before the close is a race; here the worker's use happens
// first in real time: the threads take turns through relaxed atomics, which order nothing).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static FILE* shared;
static int lines_written;
static atomic_int turn; // 1: the unlocked writer's, 2: main's (relaxed: orders nothing)

static void* locked_writer(void* arg) {
    (void)arg;
    flockfile(shared);          // RACE (the lock field, with the unlocked putc and fclose)
    putc_unlocked('a', shared); // RACE
    ++lines_written;            // RACE
    funlockfile(shared);        // RACE
    (void)fgetc(shared);        // RACE
    atomic_store_explicit(&turn, 1, memory_order_relaxed);
    return NULL;
}

static void* unlocked_writer(void* arg) {
    (void)arg;
    while (atomic_load_explicit(&turn, memory_order_relaxed) != 1) {
    }
    putc_unlocked('b', shared); // RACE
    ++lines_written;            // RACE
    atomic_store_explicit(&turn, 2, memory_order_relaxed);
    return NULL;
}

int main(void) {
    shared = tmpfile();
    if (shared == NULL) return 1;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, locked_writer, NULL);
    pthread_create(&t2, NULL, unlocked_writer, NULL);
    while (atomic_load_explicit(&turn, memory_order_relaxed) != 2) {
    }
    fclose(shared); // RACE
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("%d lines\n", lines_written);
    return 0;
}
