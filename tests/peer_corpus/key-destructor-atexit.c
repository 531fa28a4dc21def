// A pthread_key destructor records into a mutex-protected log when its thread ends; an atexit
// handler reads the log after main has joined every thread; pthread_once initializes it.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long log_sum;
static int* table;
static void destructor(void* value) {
    pthread_mutex_lock(&m);
    log_sum += *(int*)value;
    pthread_mutex_unlock(&m);
    free(value);
}
static void init(void) {
    table = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; ++i)
        table[i] = 10 * i;
}
static void report(void) {
    printf("%ld\n", log_sum);
    free(table);
}
static void* worker(void* arg) {
    pthread_once(&once, init);
    int* v = malloc(sizeof(int));
    *v = table[(long)arg];
    pthread_setspecific(key, v);
    return NULL;
}
int main(void) {
    pthread_key_create(&key, destructor);
    atexit(report);
    pthread_t t[4];
    for (long i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    return 0;
}
