// mq-fifo with two bugs: main reads the second producer's record after receiving only the first
// message (the first producer's: FIFO within a priority), though the second producer has sent
// by then (the runtime once ordered a receive after every send of its priority: missed); and the
// urgent sender fills its record after sending, which the watcher reads after epoll reports the
// queue readable.
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

static char name[64];
static mqd_t queue;
static int records[2][4];
static int urgent_record[4];
static atomic_int sent;

static void wait_sent(int n) {
    while (atomic_load_explicit(&sent, memory_order_relaxed) < n)
        sched_yield();
}

static void* producer(void* arg) {
    const int i = (int)(long)arg;
    if (i == 1) wait_sent(1);
    for (int k = 0; k < 4; ++k)
        records[i][k] = 10 * i + k; // RACE
    const char index = (char)i;
    if (mq_send(queue, &index, 1, 3) != 0) perror("mq_send");
    atomic_fetch_add_explicit(&sent, 1, memory_order_relaxed);
    return NULL;
}

static void* urgent_sender(void* arg) {
    (void)arg;
    if (mq_send(queue, "u", 1, 7) != 0) perror("mq_send");
    for (int k = 0; k < 4; ++k)
        urgent_record[k] = 70 + k; // RACE
    return NULL;
}

static int receive(int expected_priority) {
    char buf[16];
    unsigned priority = 0;
    if (mq_receive(queue, buf, sizeof buf, &priority) != 1 ||
        priority != (unsigned)expected_priority) {
        fprintf(stderr, "unexpected message\n");
        exit(1);
    }
    return buf[0];
}

int main(void) {
    snprintf(name, sizeof name, "/firstrace-mq-fifo-%d", getpid());
    struct mq_attr attr = {.mq_maxmsg = 8, .mq_msgsize = 16};
    queue = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    if (queue < 0) {
        perror("mq_open");
        return 1;
    }
    mq_unlink(name);
    pthread_t producers[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&producers[i], NULL, producer, (void*)i);
    wait_sent(2);
    int sum = 0;
    const int first = receive(3);
    for (int k = 0; k < 4; ++k)
        sum += records[first][k] + records[1 - first][k]; // RACE
    const int second = receive(3);
    for (int k = 0; k < 4; ++k)
        sum += records[second][k];

    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = queue};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, queue, &ev) != 0) return 1;
    pthread_t urgent;
    pthread_create(&urgent, NULL, urgent_sender, NULL);
    struct epoll_event ready;
    if (epoll_wait(ep, &ready, 1, 10000) != 1) return 1;
    for (int k = 0; k < 4; ++k)
        sum += urgent_record[k]; // RACE
    receive(7);
    for (int i = 0; i < 2; ++i)
        pthread_join(producers[i], NULL);
    pthread_join(urgent, NULL);
    close(ep);
    mq_close(queue);
    printf("%d %d %d\n", first, second, sum);
    return 0;
}
