// A release sequence goes on through later stores of the releasing thread (C11 5.1.2.4p10; C++11
// to C++17 [intro.races]p5; C++20 dropped the clause, but gcc 12 and clang 14 compile C17 and
// C++17/C++14 by default, and ThreadSanitizer keeps the release too): a loader publishes its
// table with a release store of the stage and then advances the stage with relaxed stores; a
// reader that sees the last stage with an acquire load synchronizes with the release (it waits
// with relaxed loads first, so that its acquire reads the last stage). A checker's relaxed RMW
// in between continues the sequence too. Before, any store that was not
// an RMW ended the sequence (a false race on the table in every run).
#include <pthread.h>
#include <stdatomic.h>

static atomic_int stage;
static int table[64];

static void* loader(void* arg) {
    (void)arg;
    for (int i = 0; i < 64; i++)
        table[i] = i * i;
    atomic_store_explicit(&stage, 1, memory_order_release);
    atomic_store_explicit(&stage, 2, memory_order_relaxed);
    while (atomic_load_explicit(&stage, memory_order_relaxed) != 3) {
    }
    atomic_store_explicit(&stage, 4, memory_order_relaxed);
    return 0;
}

static void* checker(void* arg) {
    (void)arg;
    int two = 2;
    while (!atomic_compare_exchange_weak_explicit(&stage, &two, 3, memory_order_relaxed,
                                                  memory_order_relaxed))
        two = 2;
    return 0;
}

int main(void) {
    pthread_t l, c;
    pthread_create(&l, 0, loader, 0);
    pthread_create(&c, 0, checker, 0);
    while (atomic_load_explicit(&stage, memory_order_relaxed) != 4) {
    }
    if (atomic_load_explicit(&stage, memory_order_acquire) != 4) return 1;
    long sum = 0;
    for (int i = 0; i < 64; i++)
        sum += table[i];
    pthread_join(l, 0);
    pthread_join(c, 0);
    return sum != 85344;
}
