// Blocks from realloc, posix_memalign and aligned_alloc handed to a thread through a mutex and
// freed there; main reallocates what comes back.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static char* box;
static void* consumer(void* arg) {
    (void)arg;
    long sum = 0;
    for (int i = 0; i < 30; ++i) {
        pthread_mutex_lock(&m);
        while (box == NULL)
            pthread_cond_wait(&c, &m);
        char* p = box;
        box = NULL;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
        sum += p[0];
        free(p);
    }
    return (void*)sum;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, consumer, NULL);
    for (int i = 0; i < 30; ++i) {
        char* p = NULL;
        if (i % 3 == 0) {
            p = realloc(NULL, 16);
            p = realloc(p, 4096);
        } else if (i % 3 == 1) {
            void* q;
            if (posix_memalign(&q, 64, 256) != 0) return 1;
            p = q;
        } else {
            p = aligned_alloc(128, 512);
        }
        memset(p, i, 16);
        pthread_mutex_lock(&m);
        while (box != NULL)
            pthread_cond_wait(&c, &m);
        box = p;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    void* sum;
    pthread_join(t, &sum);
    printf("%ld\n", (long)sum);
    return 0;
}
