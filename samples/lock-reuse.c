// Locks that no init call makes, in memory an earlier thread gave back, used in order: four
// kinds of lock, each in two rounds that main joins one after the other. In each round an
// owner sets up its lock (a function-local `PTHREAD_MUTEX_INITIALIZER` mutex on its stack, its
// `__thread` mutex, a mutex assigned `PTHREAD_MUTEX_INITIALIZER` in a malloc'd record, a C11
// `atomic_flag` spin lock cleared by calloc's zeros) where the previous round's was (glibc's
// cached stack and TLS, the dead owner's arena), starts a helper, and both update a total
// under the lock. The second round's lock is a new one (lock-reuse-racy.c), and its operations
// still order the owner and its helper, which nothing else orders after the helper's start.
// No race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct record {
    pthread_mutex_t lock;
    atomic_flag spin;
    char payload[64];
};

static long on_stack, in_tls, in_record, under_spin;
static void* addresses[4][2]; // read by main after the joins
static __thread pthread_mutex_t tls_lock = PTHREAD_MUTEX_INITIALIZER;

struct shared {
    pthread_mutex_t* mutex; // or
    atomic_flag* spin;
    long* total;
};

static void update(const struct shared* s, long by) {
    if (s->mutex) {
        pthread_mutex_lock(s->mutex);
        *s->total += by;
        pthread_mutex_unlock(s->mutex);
    } else {
        while (atomic_flag_test_and_set_explicit(s->spin, memory_order_acquire))
            ;
        *s->total += by;
        atomic_flag_clear_explicit(s->spin, memory_order_release);
    }
}

static void* helper(void* arg) {
    update(arg, 2);
    return NULL;
}

// The owner's side: a helper updates the total under the same lock meanwhile.
static void share(const struct shared* s) {
    pthread_t h;
    pthread_create(&h, NULL, helper, (void*)s);
    update(s, 1);
    pthread_join(h, NULL);
}

static void* stack_owner(void* arg) {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; // where the earlier owner's was
    addresses[0][(long)arg] = &lock;
    const struct shared s = {&lock, NULL, &on_stack};
    share(&s);
    return NULL;
}

static void* tls_owner(void* arg) {
    addresses[1][(long)arg] = &tls_lock;
    const struct shared s = {&tls_lock, NULL, &in_tls};
    share(&s);
    return NULL;
}

static void* record_owner(void* arg) {
    struct record* r = malloc(sizeof *r);
    addresses[2][(long)arg] = r;
    const pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    r->lock = fresh;
    const struct shared s = {&r->lock, NULL, &in_record};
    share(&s);
    free(r);
    return NULL;
}

static void* spin_owner(void* arg) {
    struct record* r = calloc(1, sizeof *r); // zeros: a clear flag (ATOMIC_FLAG_INIT)
    addresses[3][(long)arg] = r;
    const struct shared s = {NULL, &r->spin, &under_spin};
    share(&s);
    free(r);
    return NULL;
}

int main(void) {
    void* (*const owners[4])(void*) = {stack_owner, tls_owner, record_owner, spin_owner};
    for (int kind = 0; kind < 4; ++kind)
        for (long round = 0; round < 2; ++round) {
            pthread_t t;
            pthread_create(&t, NULL, owners[kind], (void*)round);
            pthread_join(t, NULL);
        }
    for (int kind = 0; kind < 4; ++kind)
        printf("%s ", addresses[kind][0] == addresses[kind][1] ? "reused" : "not-reused");
    printf("%ld %ld %ld %ld\n", on_stack, in_tls, in_record, under_spin);
    return 0;
}
