// Two threads write different bit-fields of one byte: one memory location, a race.
#include <pthread.h>
#include <stdio.h>
static struct {
    unsigned low : 4;
    unsigned high : 4;
} bits;
static void* worker(void* arg) {
    (void)arg;
    bits.low = 3; // RACE
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    bits.high = 5; // RACE
    pthread_join(t, NULL);
    printf("%u %u\n", bits.low, bits.high);
    return 0;
}
