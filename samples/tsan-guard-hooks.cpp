// ThreadSanitizer's hooks around a potentially blocking __cxa_guard_acquire (LLVM 20 and later):
// a thread that finds a function-local static being initialised by another thread calls the
// program's __tsan::OnPotentiallyBlockingRegionBegin before it waits and ..End after; an
// uncontended initialisation calls neither (compiler-rt's cxa_guard_acquire.cpp). Here the
// constructor waits at a barrier for the second thread, which reaches it only from the hook:
// without the hook call the program deadlocks. The static's value is read after the guard
// (ordered by it), the counters under a mutex.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t meet;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int hook_calls;
static int total;

namespace __tsan {
void OnPotentiallyBlockingRegionBegin() {
    pthread_mutex_lock(&lock);
    ++hook_calls;
    pthread_mutex_unlock(&lock);
    pthread_barrier_wait(&meet); // lets the constructor finish
}
void OnPotentiallyBlockingRegionEnd() {}
} // namespace __tsan

struct Lazy {
    int value;
    Lazy() : value(7) { pthread_barrier_wait(&meet); } // waits for the contending thread
};

static const Lazy& lazy() {
    static const Lazy instance;
    return instance;
}

static void* user(void*) {
    const int v = lazy().value;
    pthread_mutex_lock(&lock);
    total += v;
    pthread_mutex_unlock(&lock);
    return nullptr;
}

int main() {
    pthread_barrier_init(&meet, nullptr, 2);
    pthread_t a, b;
    pthread_create(&a, nullptr, user, nullptr);
    pthread_create(&b, nullptr, user, nullptr);
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    if (hook_calls != 1 || total != 14) abort();
    printf("%d %d\n", hook_calls, total);
    return 0;
}
