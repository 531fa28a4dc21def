// scattered-table.c, but thread 1 also bumps the first slot thread 0 visits (an even slot)
// without a lock: one 4-byte race among the threads' scattered accesses, which share 64-byte
// granules everywhere else without sharing a byte.
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
        table[slot] += 1; // RACE
        if (parity == 1 && i == kVisits / 2) {
            uint32_t other = 12345u;
            table[slot_of(0, &other)] += 1; // RACE
        }
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
    return 0;
}
