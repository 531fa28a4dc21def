// Locks that no init call makes, in memory an earlier thread gave back. Four pairs of detached
// threads run one after the other (main only sleeps between them, which orders nothing): the
// second of a pair takes a lock that sits where the first one's lock was and writes a global
// the first one wrote. The lock is a new one, not the old one again: its first acquire is not
// ordered after the old lock's last release, so each pair's writes race.
// - a function-local `pthread_mutex_t = PTHREAD_MUTEX_INITIALIZER` on glibc's cached stack
//   (the second thread gets the first one's stack block);
// - a `__thread` mutex in the static TLS of that block;
// - a mutex set with `PTHREAD_MUTEX_INITIALIZER` in a heap record (the second thread gets the
//   first one's arena back, and the record's bytes with it);
// - a C11 `atomic_flag` spin lock in such a record, cleared by calloc's zeros (no atomic store
//   starts it).
// firstrace before: one object per address, each second thread's lock acquired the first
// one's release and hid the race. clang 14 ThreadSanitizer reports the two heap races (it
// drops sync objects at a free), not the stack and TLS ones.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct record {
    pthread_mutex_t lock;
    atomic_flag spin;
    char payload[64];
};

static long on_stack, in_tls, in_record, under_spin;
static _Atomic(void*) addresses[4][2]; // printed by main (relaxed: orders nothing)
static __thread pthread_mutex_t tls_lock = PTHREAD_MUTEX_INITIALIZER;

static void lock_and_unlock(pthread_mutex_t* m) {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
}

static void spin_and_release(atomic_flag* flag) {
    while (atomic_flag_test_and_set_explicit(flag, memory_order_acquire))
        ;
    atomic_flag_clear_explicit(flag, memory_order_release);
}

static void note(int pair, long round, void* address) {
    atomic_store_explicit(&addresses[pair][round], address, memory_order_relaxed);
}

static void* stack_worker(void* arg) {
    const long round = (long)arg;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; // where the earlier worker's was
    note(0, round, &lock);
    if (round == 0) {
        on_stack += 1; // RACE
        lock_and_unlock(&lock);
    } else {
        lock_and_unlock(&lock);
        on_stack += 2; // RACE BUG in stack_worker NAMED on_stack
    }
    return NULL;
}

static void* tls_worker(void* arg) {
    const long round = (long)arg;
    note(1, round, &tls_lock);
    if (round == 0) {
        in_tls += 1; // RACE
        lock_and_unlock(&tls_lock);
    } else {
        lock_and_unlock(&tls_lock);
        in_tls += 2; // RACE BUG in tls_worker NAMED in_tls
    }
    return NULL;
}

static void* record_worker(void* arg) {
    const long round = (long)arg;
    struct record* r = malloc(sizeof *r);
    note(2, round, r);
    const pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    r->lock = fresh;
    if (round == 0) {
        in_record += 1; // RACE
        lock_and_unlock(&r->lock);
    } else {
        lock_and_unlock(&r->lock);
        in_record += 2; // RACE BUG in record_worker NAMED in_record
    }
    free(r);
    return NULL;
}

static void* spin_worker(void* arg) {
    const long round = (long)arg;
    struct record* r = calloc(1, sizeof *r); // zeros: a clear flag (ATOMIC_FLAG_INIT)
    note(3, round, r);
    if (round == 0) {
        under_spin += 1; // RACE
        spin_and_release(&r->spin);
    } else {
        spin_and_release(&r->spin);
        under_spin += 2; // RACE BUG in spin_worker NAMED under_spin
    }
    free(r);
    return NULL;
}

int main(void) {
    void* (*const workers[4])(void*) = {stack_worker, tls_worker, record_worker, spin_worker};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int pair = 0; pair < 4; ++pair)
        for (long round = 0; round < 2; ++round) { // one after the other, never joined
            pthread_t t;
            pthread_create(&t, &attr, workers[pair], (void*)round);
            usleep(50000); // the worker ends meanwhile: its stack, TLS and arena go back
        }
    pthread_attr_destroy(&attr);
    for (int pair = 0; pair < 4; ++pair)
        printf("%s ", addresses[pair][0] == addresses[pair][1] ? "reused" : "not-reused");
    printf("\n");
    return 0;
}
