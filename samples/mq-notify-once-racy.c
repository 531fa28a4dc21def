// mq-notify-once with a bug: the second notification reads B's record, which B filled before a
// send made while no registration was in effect (drained by D): nothing orders B's writes before
// that notification (the runtime once kept the first registration after it fired, and B's send
// released to the second notification: missed).
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static mqd_t queue;
static int record_a[4], record_b[4], record_c[4];
static int notified_sum[2];
static atomic_int notifications, stage;
static sem_t first_done, second_done;

static void wait_stage(int n) {
    while (atomic_load_explicit(&stage, memory_order_relaxed) < n)
        sched_yield();
}

static void fill(int* record, int base) {
    for (int k = 0; k < 4; ++k)
        record[k] = base + k; // RACE
}

// noinline: the records are static and never escape once this is inlined, and clang -O2 then
// loads them before the mq_receive that orders them (it assumes the call cannot change them).
__attribute__((noinline)) static int sum_of(const int* record) {
    int sum = 0;
    for (int k = 0; k < 4; ++k)
        sum += record[k];
    return sum;
}

static void notified(union sigval value) {
    (void)value;
    char buf[16];
    if (mq_receive(queue, buf, sizeof buf, NULL) != 1) return;
    const int n = atomic_fetch_add(&notifications, 1);
    if (n == 0) {
        notified_sum[0] = sum_of(record_a);
        sem_post(&first_done);
    } else {
        notified_sum[1] = sum_of(record_c) + record_b[0]; // RACE
        sem_post(&second_done);
    }
}

static void* sender_a(void* arg) {
    (void)arg;
    fill(record_a, 10);
    mq_send(queue, "a", 1, 0);
    return NULL;
}

static void* sender_b(void* arg) {
    (void)arg;
    sem_wait(&first_done); // the first notification has run: no registration now
    fill(record_b, 20);
    mq_send(queue, "b", 1, 0);
    atomic_store_explicit(&stage, 1, memory_order_relaxed);
    return NULL;
}

static void* drainer_d(void* arg) {
    (void)arg;
    wait_stage(1);
    char buf[16];
    if (mq_receive(queue, buf, sizeof buf, NULL) == 1) *(int*)arg = sum_of(record_b);
    atomic_store_explicit(&stage, 2, memory_order_relaxed);
    return NULL;
}

static void* sender_c(void* arg) {
    (void)arg;
    wait_stage(3);
    fill(record_c, 30);
    mq_send(queue, "c", 1, 0);
    return NULL;
}

int main(void) {
    char name[64];
    snprintf(name, sizeof name, "/firstrace-mq-once-%d", getpid());
    struct mq_attr attr = {.mq_maxmsg = 8, .mq_msgsize = 16};
    queue = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    if (queue < 0) {
        perror("mq_open");
        return 1;
    }
    mq_unlink(name);
    sem_init(&first_done, 0, 0);
    sem_init(&second_done, 0, 0);
    struct sigevent ev = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = notified};
    if (mq_notify(queue, &ev) != 0) return 1;
    int drained = 0;
    pthread_t a, b, c, d;
    pthread_create(&b, NULL, sender_b, NULL);
    pthread_create(&d, NULL, drainer_d, &drained);
    pthread_create(&c, NULL, sender_c, NULL);
    pthread_create(&a, NULL, sender_a, NULL);
    wait_stage(2);
    if (mq_notify(queue, &ev) != 0) return 1;
    atomic_store_explicit(&stage, 3, memory_order_relaxed);
    sem_wait(&second_done);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    pthread_join(d, NULL);
    mq_close(queue);
    printf("%d %d %d\n", notified_sum[0], notified_sum[1], drained);
    return 0;
}
