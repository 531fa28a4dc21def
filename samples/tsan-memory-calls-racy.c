// The calls of tsan-memory-calls.c with a worker whose fill runs over into the other half, and
// a main that copies before joining: the fills race with each other and with the copy.
#include <pthread.h>
#include <stdio.h>

void* __tsan_memcpy(void* to, const void* from, unsigned long n);
void* __tsan_memmove(void* to, const void* from, unsigned long n);
void* __tsan_memset(void* to, int byte, unsigned long n);

static char buffer[64];
static char copy[64];

static void* fill_low(void* arg) {
    (void)arg;
    __tsan_memset(buffer, 'a', 40); // RACE
    return NULL;
}

static void* fill_high(void* arg) {
    (void)arg;
    __tsan_memmove(buffer + 32, buffer + 48, 16); // RACE
    return NULL;
}

int main(void) {
    pthread_t workers[2];
    pthread_create(&workers[0], NULL, fill_low, NULL);
    pthread_create(&workers[1], NULL, fill_high, NULL);
    __tsan_memcpy(copy, buffer + 32, 8); // RACE
    pthread_join(workers[0], NULL);
    pthread_join(workers[1], NULL);
    printf("%c\n", copy[7]);
    return 0;
}
