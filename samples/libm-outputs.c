// libm's functions that store through a pointer argument: sincos, modf, frexp, lgamma_r and
// remquo (and their float forms) write the program's objects, lgamma writes libm's `signgam`.
// Two workers store into one shared record under a mutex and main reads it after the joins;
// each worker's own locals are written without the lock. The runtime is linked before libm
// (firstrace-cc), so that its interceptors of these functions are the ones the program calls.
// BUILD-FLAGS: -lm
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>

struct results {
    double sine, cosine, fraction, whole, remainder, log_gamma;
    float sine_f, cosine_f, whole_f;
    int exponent, sign, quotient, exponent_f, signgam_seen;
};
static struct results shared; // under lock
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* worker(void* arg) {
    const double x = 0.5 + (double)(long)arg;
    double own_sine, own_cosine;
    sincos(x, &own_sine, &own_cosine); // the worker's own objects
    pthread_mutex_lock(&lock);
    sincos(x, &shared.sine, &shared.cosine);
    sincosf((float)x, &shared.sine_f, &shared.cosine_f);
    shared.fraction = modf(x * 3.25, &shared.whole);
    (void)modff((float)x * 2.5f, &shared.whole_f);
    (void)frexp(x * 100.0, &shared.exponent);
    (void)frexpf((float)x * 10.0f, &shared.exponent_f);
    (void)lgamma_r(-x, &shared.sign);
    shared.remainder = remquo(x * 7.0, 2.0, &shared.quotient);
    shared.log_gamma = lgamma(-x);
    shared.signgam_seen = signgam;
    pthread_mutex_unlock(&lock);
    return (void*)(long)(own_sine + own_cosine > 0);
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%.3f %.3f %.3f %.1f %.3f %d %d %d %d %d\n", shared.sine, shared.cosine, shared.fraction,
           shared.whole, shared.remainder, shared.exponent, shared.sign, shared.quotient,
           shared.exponent_f, shared.signgam_seen);
    return 0;
}
