// Producer/consumer on POSIX semaphores: a bounded buffer with `slots` (initially the buffer
// size) and `items` (initially 0). No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define SIZE 4
#define COUNT 40

static int buffer[SIZE];
static sem_t slots, items;

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < COUNT; ++i) {
        sem_wait(&slots);
        buffer[i % SIZE] = i * i;
        sem_post(&items);
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* sum = arg;
    for (int i = 0; i < COUNT; ++i) {
        sem_wait(&items);
        *sum += buffer[i % SIZE];
        sem_post(&slots);
    }
    return NULL;
}

int main(void) {
    sem_init(&slots, 0, SIZE);
    sem_init(&items, 0, 0);
    long sum = 0;
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, &sum);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("sum %ld\n", sum);
    return 0;
}
