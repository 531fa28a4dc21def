// As libm-outputs.c, but main reads what the worker's frexp and sincos store before joining
// it, and both threads call lgamma, which stores the sign in libm's global `signgam`, without
// the lock (C99 7.12.8.3: lgamma is not required to be thread-safe).
// BUILD-FLAGS: -lm
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static double sine, cosine;
static int exponent;
static atomic_int stored; // relaxed: orders nothing

static void* worker(void* arg) {
    const double x = 0.5 + (double)(long)arg;
    (void)frexp(x * 100.0, &exponent); // RACE
    sincos(x, &sine, &cosine);         // RACE
    const double g = lgamma(x);        // RACE
    atomic_store_explicit(&stored, 1, memory_order_relaxed);
    return (void*)(long)(g > 0);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, (void*)1L);
    for (int tries = 0; tries < 2000 && !atomic_load_explicit(&stored, memory_order_relaxed);
         ++tries) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    const int e = exponent;       // RACE
    const double s = sine;        // RACE
    const double g = lgamma(2.5); // RACE
    pthread_join(t, NULL);
    printf("%d %.3f %.3f\n", e, s, g);
    return 0;
}
