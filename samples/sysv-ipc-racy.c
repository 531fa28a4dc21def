// sysv-ipc with the orderings broken: one locker skips the semaphore, the record is written
// again after its V, the sender rewrites a record after sending its index, and the segment's
// user writes it after telling main (relaxed) while main reads it through the shared pointer.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>

enum { kLock = 0, kRecordReady = 1, kPolled = 2 };
static int semaphores, queue;
static long counter;
static int record, polled_record;
static int messages[8];
static _Atomic(char*) segment;  // relaxed
static atomic_int segment_read; // relaxed: the detach waits for main's read, unordered

struct message {
    long type;
    int index;
};

static void semaphore_add(int number, int delta) {
    struct sembuf op = {(unsigned short)number, (short)delta, 0};
    while (semop(semaphores, &op, 1) != 0) {
    }
}

static void* locker(void* arg) {
    for (int i = 0; i < 100; ++i) {
        if (arg != NULL) { // forgets the semaphore
            counter++;     // RACE
            continue;
        }
        semaphore_add(kLock, -1);
        counter++; // RACE
        semaphore_add(kLock, 1);
    }
    return arg;
}

static void* record_filler(void* arg) {
    record = 42;
    semaphore_add(kRecordReady, 1);
    record = 43; // RACE
    semctl(semaphores, kPolled, SETVAL, 1);
    polled_record = 5; // RACE
    return arg;
}

static void* sender(void* arg) {
    for (int i = 0; i < 8; ++i) {
        messages[i] = i * 3;
        struct message m = {1 + i % 2, i};
        msgsnd(queue, &m, sizeof m.index, 0);
    }
    messages[7] = 0; // RACE
    return arg;
}

static void* segment_user(void* arg) {
    int id = shmget(IPC_PRIVATE, 1 << 16, 0600);
    char* p = shmat(id, NULL, 0); // RACE? (the attach writes the new memory)
    shmctl(id, IPC_RMID, NULL);
    atomic_store_explicit(&segment, p, memory_order_relaxed);
    memset(p, 1, 1 << 16); // RACE
    while (!atomic_load_explicit(&segment_read, memory_order_relaxed))
        usleep(100);
    shmdt(p); // RACE? (the detach writes it)
    return arg;
}

int main(void) {
    semaphores = semget(IPC_PRIVATE, 3, 0600);
    queue = msgget(IPC_PRIVATE, 0600);
    semctl(semaphores, kLock, SETVAL, 1);
    pthread_t t[5];
    pthread_create(&t[0], NULL, locker, NULL);
    pthread_create(&t[1], NULL, locker, &t);
    pthread_create(&t[2], NULL, record_filler, NULL);
    pthread_create(&t[3], NULL, sender, NULL);
    pthread_create(&t[4], NULL, segment_user, NULL);

    struct sembuf wait_record = {kRecordReady, -1, 0};
    struct timespec limit = {10, 0};
    while (semtimedop(semaphores, &wait_record, 1, &limit) != 0) {
    }
    long seen = record; // RACE
    while (semctl(semaphores, kPolled, GETVAL) != 1)
        usleep(100);
    seen += polled_record; // RACE
    for (int i = 0; i < 8; ++i) {
        struct message m;
        while (msgrcv(queue, &m, sizeof m.index, 0, 0) < 0) {
        }
        seen += messages[m.index]; // RACE
    }
    char* p;
    while ((p = atomic_load_explicit(&segment, memory_order_relaxed)) == NULL)
        usleep(100);
    seen += p[7]; // RACE
    atomic_store_explicit(&segment_read, 1, memory_order_relaxed);

    for (int i = 0; i < 5; ++i)
        pthread_join(t[i], NULL);
    semctl(semaphores, 0, IPC_RMID);
    msgctl(queue, IPC_RMID, NULL);
    printf("%ld %ld\n", counter, seen);
    return 0;
}
