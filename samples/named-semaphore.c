// A named semaphore (sem_open) created with one token, used as a lock by two workers: each
// waits, updates the total, posts. The first wait takes the initial token and pairs with no
// post; every later wait is ordered after the post that gave it its token.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t* lock;
static long total;

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 100; ++i) {
        sem_wait(lock);
        total += i;
        sem_post(lock);
    }
    return NULL;
}

int main(void) {
    char name[64];
    snprintf(name, sizeof name, "/firstrace-sample-%d", (int)getpid());
    lock = sem_open(name, O_CREAT | O_EXCL, 0600, 1);
    if (lock == SEM_FAILED) return 1;
    sem_unlink(name);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    sem_close(lock);
    printf("%ld\n", total);
    return 0;
}
