// Two threads update a shared table at scattered slots without a lock: thread 0 owns the even
// slots, thread 1 the odd ones, each visiting its own in a pseudo-random order. Neighbouring
// slots of the two threads share 64-byte granules, so the run shows no race only if the tracer
// keeps each thread's bytes exactly (scattered accesses go to a granule set with a byte mask per
// granule, tracer/src/rt_granule_set.hpp).
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

enum { kSlots = 1 << 14, kVisits = 50000 };
static uint32_t table[kSlots];

// The k-th slot (k >= 1) thread `parity` visits.
static uint32_t slot_of(uint32_t parity, uint32_t* state) {
    *state = *state * 1664525u + 1013904223u;
    return ((*state >> 8) % (kSlots / 2)) * 2 + parity;
}

static void* worker(void* arg) {
    const uint32_t parity = (uint32_t)(uintptr_t)arg;
    uint32_t state = 12345u + parity;
    for (int i = 0; i < kVisits; ++i) {
        const uint32_t slot = slot_of(parity, &state);
        table[slot] += 1;
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (uintptr_t p = 0; p < 2; ++p)
        pthread_create(&t[p], NULL, worker, (void*)p);
    for (int p = 0; p < 2; ++p)
        pthread_join(t[p], NULL);
    uint64_t sum = 0;
    for (int i = 0; i < kSlots; ++i)
        sum += table[i];
    printf("%llu visits\n", (unsigned long long)sum);
    return sum == 2 * kVisits ? 0 : 1;
}
