// Producer/consumer on POSIX semaphores where the consumer gives the slot back (posts `slots`)
// before it has read the item: the producer may overwrite the slot while it is being read.
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
        buffer[i % SIZE] = i * i; // RACE
        sem_post(&items);
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* sum = arg;
    for (int i = 0; i < COUNT; ++i) {
        sem_wait(&items);
        sem_post(&slots);         /* too early: the slot is still to be read */
        *sum += buffer[i % SIZE]; // RACE
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
