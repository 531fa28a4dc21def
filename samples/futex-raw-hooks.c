// A hand-made event on a futex the program drives with the `syscall` instruction itself
// (inline assembly: no syscall() the runtime could intercept), announced with the futex hooks
// that <sanitizer/linux_syscall_hooks.h> declares since LLVM 15 (clang 14's header has none, so
// they are declared here as the newer header does). The producer fills a record, sets the event
// word with a relaxed store and wakes the waiter; the consumer sleeps in FUTEX_WAIT until the
// word changes, then reads the record. The kernel orders the wake before the wait it ends (both
// take the futex's hash-bucket lock): the record is handed over, as with syscall(SYS_futex)
// (futex-handoff.c). The producer first sleeps so that the consumer is asleep in the kernel.
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

void __sanitizer_syscall_pre_impl_futex(long uaddr, long op, long val, long timeout, long uaddr2,
                                        long val3);
void __sanitizer_syscall_post_impl_futex(long res, long uaddr, long op, long val, long timeout,
                                         long uaddr2, long val3);

static int event_word;
static int record[4];

static long raw_futex(int* word, int op, int value) {
    __sanitizer_syscall_pre_impl_futex((long)word, op, value, 0, 0, 0);
    long r;
    register long r10 __asm__("r10") = 0;
    register long r8 __asm__("r8") = 0;
    register long r9 __asm__("r9") = 0;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "0"((long)SYS_futex), "D"(word), "S"((long)op), "d"((long)value), "r"(r10),
                       "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    __sanitizer_syscall_post_impl_futex(r, (long)word, op, value, 0, 0, 0);
    return r;
}

static void* produce(void* arg) {
    (void)arg;
    usleep(100000); // the consumer is in FUTEX_WAIT by then
    for (int i = 0; i < 4; ++i)
        record[i] = 10 + i;
    __atomic_store_n(&event_word, 1, __ATOMIC_RELAXED);
    raw_futex(&event_word, FUTEX_WAKE_PRIVATE, 1);
    return NULL;
}

int main(void) {
    pthread_t producer;
    pthread_create(&producer, NULL, produce, NULL);
    int sum = 0;
    while (__atomic_load_n(&event_word, __ATOMIC_RELAXED) != 1)
        raw_futex(&event_word, FUTEX_WAIT_PRIVATE, 0);
    for (int i = 0; i < 4; ++i)
        sum += record[i];
    pthread_join(producer, NULL);
    printf("sum %d\n", sum);
    return 0;
}
