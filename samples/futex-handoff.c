// A hand-made event on a raw futex (syscall(SYS_futex), futex(2)): the producer fills a record,
// sets the event word with a relaxed store and wakes the waiter with FUTEX_WAKE; the consumer
// sleeps in FUTEX_WAIT until the word changes, then reads the record. The kernel orders the
// wake before the wait it ends (both take the futex's hash-bucket lock), so the record is
// handed over; ThreadSanitizer does not model futexes and reports the record as a race. The
// producer first sleeps so that the consumer is asleep in the kernel (a consumer that never
// sleeps would see the word through a relaxed load alone: a race). One round: a second one
// would need the consumer to tell the producer it has read the record.
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
    for (int i = 0; i < 4; ++i)
        record[i] = 10 + i;
    __atomic_store_n(&event_word, 1, __ATOMIC_RELAXED);
    futex(&event_word, FUTEX_WAKE_PRIVATE, 1);
    return NULL;
}

int main(void) {
    pthread_t producer;
    pthread_create(&producer, NULL, produce, NULL);
    int sum = 0;
    while (__atomic_load_n(&event_word, __ATOMIC_RELAXED) != 1)
        futex(&event_word, FUTEX_WAIT_PRIVATE, 0);
    for (int i = 0; i < 4; ++i)
        sum += record[i];
    pthread_join(producer, NULL);
    printf("sum %d\n", sum);
    return 0;
}
