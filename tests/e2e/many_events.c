/* Many synchronization events (a trace of several MB): for the write-failure test, where a
 * file size limit stops the tracer's writes part way (issue 13). Race-free. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void* work(void* arg) {
    (void)arg;
    for (int i = 0; i < 200000; ++i) {
        pthread_mutex_lock(&lock);
        ++counter;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%ld\n", counter);
    return 0;
}
