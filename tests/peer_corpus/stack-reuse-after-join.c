// Threads created one after another, each joined before the next starts, write a large local
// array: glibc gives each the previous thread's cached stack.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
static long total;
static void* worker(void* arg) {
    char buffer[4096];
    memset(buffer, (int)(long)arg, sizeof buffer);
    long s = 0;
    for (unsigned i = 0; i < sizeof buffer; i += 512)
        s += buffer[i];
    return (void*)s;
}
int main(void) {
    for (long i = 1; i <= 4; ++i) {
        pthread_t t;
        void* r;
        pthread_create(&t, NULL, worker, (void*)i);
        pthread_join(t, &r);
        total += (long)r;
    }
    printf("%ld\n", total);
    return 0;
}
