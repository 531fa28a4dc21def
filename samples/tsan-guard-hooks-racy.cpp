// The hooks of tsan-guard-hooks.cpp: the contending thread reaches the constructor's barrier
// only from OnPotentiallyBlockingRegionBegin; here both threads add to the total without the
// mutex.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t meet;
static int total;

namespace __tsan {
void OnPotentiallyBlockingRegionBegin() {
    pthread_barrier_wait(&meet);
}
void OnPotentiallyBlockingRegionEnd() {}
} // namespace __tsan

struct Lazy {
    int value;
    Lazy() : value(7) { pthread_barrier_wait(&meet); }
};

static const Lazy& lazy() {
    static const Lazy instance;
    return instance;
}

static void* user(void*) {
    total += lazy().value; // RACE
    return nullptr;
}

int main() {
    pthread_barrier_init(&meet, nullptr, 2);
    pthread_t a, b;
    pthread_create(&a, nullptr, user, nullptr);
    pthread_create(&b, nullptr, user, nullptr);
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    printf("%d\n", total);
    return 0;
}
