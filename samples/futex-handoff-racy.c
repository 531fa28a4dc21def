// A hand-made event on a raw futex (syscall(SYS_futex)): the racy producer writes the record's
// last field after FUTEX_WAKE, which orders only what came before it.
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static int event_word;
static int record[4];

static long futex(int* word, int op, int value) {
    return syscall(SYS_futex, word, op, value, NULL, NULL, 0);
}

static void* produce(void* arg) {
    (void)arg;
    usleep(100000); // the consumer is in FUTEX_WAIT by then
    for (int i = 0; i < 3; ++i)
        record[i] = 10 + i;
    __atomic_store_n(&event_word, 1, __ATOMIC_RELAXED);
    futex(&event_word, FUTEX_WAKE_PRIVATE, 1);
    record[3] = 13; // RACE
    return NULL;
}

int main(void) {
    pthread_t producer;
    pthread_create(&producer, NULL, produce, NULL);
    while (__atomic_load_n(&event_word, __ATOMIC_RELAXED) != 1)
        futex(&event_word, FUTEX_WAIT_PRIVATE, 0);
    int sum = record[0] + record[1] + record[2];
    sum += record[3]; // RACE
    pthread_join(producer, NULL);
    printf("sum %d\n", sum);
    return 0;
}
