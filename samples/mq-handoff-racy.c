// POSIX message queues (see mq-handoff.c), racy: each producer writes its record's last field
// after sending it; main reads the record of a producer whose priority-5 message it never
// receives (it receives another producer's priority-1 message, which orders nothing of the
// first) before joining it; main closes a descriptor while a thread that nothing orders sends
// through it. Main's racy accesses are all at the end (in one event), so that no race is ordered
// after another.
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char name[64];
static int records[2][4];
static int own_record[4];
static int own_done;
static mqd_t late_queue;
static int late_started;

static mqd_t open_queue(int flags) {
    struct mq_attr attr = {.mq_maxmsg = 8, .mq_msgsize = 16};
    mqd_t q = mq_open(name, flags | O_CREAT, 0600, &attr);
    if (q < 0) {
        perror("mq_open");
        exit(1);
    }
    return q;
}

static void* producer(void* arg) {
    const int i = arg != NULL;
    mqd_t q = open_queue(O_WRONLY); // a descriptor of its own, of the same queue
    for (int k = 0; k < 3; ++k)
        records[i][k] = 10 * i + k;
    char index = (char)i;
    if (i == 0) {
        mq_send(q, &index, 1, 1);
    } else {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 5;
        mq_timedsend(q, &index, 1, 5, &deadline);
    }
    records[i][3] = 10 * i + 3; // RACE
    mq_close(q);
    return NULL;
}

static void* own_producer(void* arg) {
    mqd_t q = *(mqd_t*)arg;
    for (int k = 0; k < 4; ++k)
        own_record[k] = 40 + k; // RACE
    char m = 'o';
    unsigned prio;
    mq_send(q, &m, 1, 5);
    mq_receive(q, &m, 16, &prio); // its own message: the highest priority
    __atomic_store_n(&own_done, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void* other_producer(void* arg) {
    char m = 'x';
    mq_send(*(mqd_t*)arg, &m, 1, 1);
    return NULL;
}

static void* late_sender(void* arg) {
    __atomic_store_n(&late_started, 1, __ATOMIC_RELAXED);
    char m = 'l';
    usleep(10000);
    mq_send(late_queue, &m, 1, 0); // RACE
    return arg;
}

int main(void) {
    snprintf(name, sizeof name, "/firstrace-mq-handoff-%d", (int)getpid());
    mqd_t q = open_queue(O_RDWR);
    late_queue = open_queue(O_WRONLY);

    pthread_t producers[2], t[3];
    pthread_create(&producers[0], NULL, producer, NULL);
    pthread_create(&producers[1], NULL, producer, (void*)1);
    int sum = 0, indexes[2];
    for (int n = 0; n < 2; ++n) {
        char index;
        unsigned prio;
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 5;
        const ssize_t r = n == 0 ? mq_receive(q, &index, 16, &prio)
                                 : mq_timedreceive(q, &index, 16, &prio, &deadline);
        if (r != 1) return 1;
        sum += records[(int)index][0] + (int)prio;
        indexes[n] = index;
    }
    mq_unlink(name); // the queue lives on while it is open

    pthread_create(&t[0], NULL, own_producer, &q);
    while (!__atomic_load_n(&own_done, __ATOMIC_RELAXED))
        usleep(1000);
    pthread_create(&t[1], NULL, other_producer, &q);
    char m[16];
    unsigned prio;
    if (mq_receive(q, m, sizeof m, &prio) != 1 || prio != 1) return 1;

    pthread_create(&t[2], NULL, late_sender, NULL);
    while (!__atomic_load_n(&late_started, __ATOMIC_RELAXED))
        usleep(1000);
    sum += records[indexes[0]][3] + records[indexes[1]][3] + own_record[0]; // RACE
    mq_close(late_queue);                                                   // RACE
    for (int i = 0; i < 3; ++i)
        pthread_join(t[i], NULL);
    pthread_join(producers[0], NULL);
    pthread_join(producers[1], NULL);

    struct mq_attr attr;
    mq_getattr(q, &attr);
    mq_close(q);
    printf("sum %d, %ld left\n", sum, attr.mq_curmsgs);
    return 0;
}
