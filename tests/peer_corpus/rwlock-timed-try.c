// Readers with pthread_rwlock_timedrdlock / tryrdlock, a writer with timedwrlock / trywrlock.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static int table[8];
static long seen;
static struct timespec soon(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += 10;
    return t;
}
static void* reader(void* arg) {
    long sum = 0;
    for (int i = 0; i < 200; ++i) {
        struct timespec t = soon();
        int r = (i & 1) ? pthread_rwlock_tryrdlock(&l) : pthread_rwlock_timedrdlock(&l, &t);
        if (r != 0) continue;
        for (int k = 0; k < 8; ++k)
            sum += table[k];
        pthread_rwlock_unlock(&l);
    }
    *(long*)arg = sum;
    return NULL;
}
static void* writer(void* arg) {
    (void)arg;
    for (int i = 0; i < 200; ++i) {
        struct timespec t = soon();
        int r = (i & 1) ? pthread_rwlock_trywrlock(&l) : pthread_rwlock_timedwrlock(&l, &t);
        if (r != 0) continue;
        table[i % 8] += i;
        pthread_rwlock_unlock(&l);
    }
    return NULL;
}
int main(void) {
    long s1 = 0, s2 = 0;
    pthread_t a, b, c;
    pthread_create(&a, NULL, reader, &s1);
    pthread_create(&b, NULL, reader, &s2);
    pthread_create(&c, NULL, writer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    seen = s1 + s2;
    printf("%ld %d\n", seen, table[0]);
    return 0;
}
