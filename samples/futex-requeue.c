// Raw futex operations beyond wait/wake (futex(2), futex_waitv(2)):
// - FUTEX_CMP_REQUEUE: three waiters sleep on `cond`; the signaller fills the first record, moves
//   them all onto `lock` (waking none), fills the second record and wakes them at `lock`. A waiter
//   returns from its FUTEX_WAIT on `cond` when the wake at `lock` finds it: it is ordered after
//   what the signaller did before the requeue (the kernel moved it under both words' bucket
//   locks) and before that wake (the wake at `lock` that ended its wait).
// - FUTEX_WAKE_OP: the producer fills a record and, in one call, wakes `other` and sets `flag` to
//   1 (the kernel's atomic operation on the second word) waking its waiter; the consumer sleeps
//   until it reads 1 there with an acquire load.
// - futex_waitv: a consumer sleeps on two words at once; the producer fills a record, sets the
//   second word and wakes it: futex_waitv returns that word's index.
// - FUTEX_CMP_REQUEUE_PI: a waiter sleeps in FUTEX_WAIT_REQUEUE_PI on `pi_cond`; the signaller
//   fills a record and moves it to the priority-inheritance lock `pi_lock`, which the kernel
//   gives it (the lock is free): the waiter returns owning the lock, reads the record, unlocks.
// ThreadSanitizer does not intercept syscall() and orders none of these (it reports every record).
// Each producer first sleeps so that its consumers are asleep in the kernel.
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WAITERS 3
#define SYS_FUTEX_WAITV 449

static int cond, lock, requeued_done;
static int before_requeue[WAITERS], before_wake[WAITERS];
static int other, flag;
static int op_record[4];
static int first_word, second_word;
static int waitv_record[4];
static int pi_cond, pi_lock;
static int pi_record[4];

static long futex(int* word, int op, int value, long value2, int* word2, int value3) {
    return syscall(SYS_futex, word, op, value, value2, word2, value3);
}

static void* cond_waiter(void* arg) {
    const int i = (int)(intptr_t)arg;
    while (!__atomic_load_n(&requeued_done, __ATOMIC_RELAXED))
        futex(&cond, FUTEX_WAIT_PRIVATE, 0, 0, NULL, 0);
    return (void*)(intptr_t)(before_requeue[i] + before_wake[i]);
}

static void requeue_round(void) {
    pthread_t waiters[WAITERS];
    for (int i = 0; i < WAITERS; ++i)
        pthread_create(&waiters[i], NULL, cond_waiter, (void*)(intptr_t)i);
    for (int i = 0; i < WAITERS; ++i)
        before_requeue[i] = 10 + i;
    // move every waiter from cond to lock (wake none), once all of them are asleep on cond
    for (long moved = 0; moved < WAITERS;) {
        usleep(10000);
        const long n = futex(&cond, FUTEX_CMP_REQUEUE_PRIVATE, 0, INT_MAX, &lock, 0);
        if (n > 0) moved += n;
    }
    for (int i = 0; i < WAITERS; ++i)
        before_wake[i] = 20 + i;
    __atomic_store_n(&requeued_done, 1, __ATOMIC_RELAXED);
    futex(&lock, FUTEX_WAKE_PRIVATE, INT_MAX, 0, NULL, 0);
    long sum = 0;
    for (int i = 0; i < WAITERS; ++i) {
        void* r;
        pthread_join(waiters[i], &r);
        sum += (intptr_t)r;
    }
    printf("requeue %ld\n", sum);
}

static void* op_consumer(void* arg) {
    while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 0)
        futex(&flag, FUTEX_WAIT_PRIVATE, 0, 0, NULL, 0);
    return (void*)(intptr_t)(op_record[0] + op_record[3]);
}

static void wake_op_round(void) {
    pthread_t consumer;
    pthread_create(&consumer, NULL, op_consumer, NULL);
    usleep(50000);
    for (int i = 0; i < 4; ++i)
        op_record[i] = 30 + i;
    // flag = 1; wake one waiter of `other` and, as flag was 0, one of `flag`
    futex(&other, FUTEX_WAKE_OP_PRIVATE, 1, 1, &flag,
          FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_EQ, 0));
    void* r;
    pthread_join(consumer, &r);
    printf("wake_op %ld\n", (long)(intptr_t)r);
}

struct waiter { // struct futex_waitv (Linux 5.16)
    uint64_t val, uaddr;
    uint32_t flags, reserved;
};

static void* waitv_consumer(void* arg) {
    (void)arg;
    struct waiter w[2] = {{0, (uintptr_t)&first_word, FUTEX_32 | FUTEX_PRIVATE_FLAG, 0},
                          {0, (uintptr_t)&second_word, FUTEX_32 | FUTEX_PRIVATE_FLAG, 0}};
    while (__atomic_load_n(&second_word, __ATOMIC_RELAXED) == 0)
        if (syscall(SYS_FUTEX_WAITV, w, 2, 0, NULL, CLOCK_MONOTONIC) < 0) usleep(1000);
    return (void*)(intptr_t)(waitv_record[0] + waitv_record[3]);
}

static void waitv_round(void) {
    pthread_t consumer;
    pthread_create(&consumer, NULL, waitv_consumer, NULL);
    usleep(50000);
    for (int i = 0; i < 4; ++i)
        waitv_record[i] = 40 + i;
    __atomic_store_n(&second_word, 1, __ATOMIC_RELAXED);
    futex(&second_word, FUTEX_WAKE_PRIVATE, 1, 0, NULL, 0);
    void* r;
    pthread_join(consumer, &r);
    printf("waitv %ld\n", (long)(intptr_t)r);
}

static void* pi_waiter(void* arg) {
    (void)arg;
    int owner = (int)syscall(SYS_gettid);
    while (futex(&pi_cond, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, 0, &pi_lock, 0) != 0)
        usleep(1000);
    const int seen = pi_record[0] + pi_record[3];
    // unlock: in user space unless the kernel marked waiters
    if (!__atomic_compare_exchange_n(&pi_lock, &owner, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        futex(&pi_lock, FUTEX_UNLOCK_PI_PRIVATE, 0, 0, NULL, 0);
    return (void*)(intptr_t)seen;
}

static void requeue_pi_round(void) {
    pthread_t waiter;
    pthread_create(&waiter, NULL, pi_waiter, NULL);
    for (int i = 0; i < 4; ++i)
        pi_record[i] = 60 + i;
    // wake the waiter onto pi_lock (it gets the free lock) once it is asleep on pi_cond
    while (futex(&pi_cond, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 0, &pi_lock, 0) < 1)
        usleep(10000);
    void* r;
    pthread_join(waiter, &r);
    printf("requeue_pi %ld\n", (long)(intptr_t)r);
}

int main(void) {
    requeue_round();
    wake_op_round();
    waitv_round();
    requeue_pi_round();
    return 0;
}
