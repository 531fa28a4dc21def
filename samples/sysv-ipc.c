// System V IPC between the threads of one process (XSH semop, msgsnd, msgrcv, shmat, shmdt):
// a semaphore set used as a lock (P = sem_op -1, V = +1) around a counter, a second semaphore
// a worker posts after filling a record (main's semtimedop waits for it), messages whose
// index names a record the sender wrote before sending, and a shared memory segment that a
// worker attaches, writes and detaches, after which main attaches its own segment (the kernel
// may place it at the same address: new memory); a record published by semctl(SETVAL) that
// main polls with semctl(GETVAL). Race-free; the runtime did not model System V
// IPC before (false races on the counter, the record, the messages' records and the segment).
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
static atomic_int detached; // relaxed: the segment's detach orders main's attach

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
        semaphore_add(kLock, -1);
        counter++;
        semaphore_add(kLock, 1);
    }
    return arg;
}

static void* record_filler(void* arg) {
    record = 42;
    semaphore_add(kRecordReady, 1);
    polled_record = 5;
    semctl(semaphores, kPolled, SETVAL, 1); // XBD 4.12: semctl synchronizes memory
    return arg;
}

static void* sender(void* arg) {
    for (int i = 0; i < 8; ++i) {
        messages[i] = i * 3;
        struct message m = {1 + i % 2, i};
        msgsnd(queue, &m, sizeof m.index, 0);
    }
    return arg;
}

static void* segment_user(void* arg) {
    int id = shmget(IPC_PRIVATE, 1 << 16, 0600);
    char* p = shmat(id, NULL, 0);
    shmctl(id, IPC_RMID, NULL);
    memset(p, 1, 1 << 16);
    shmdt(p);
    atomic_store_explicit(&detached, 1, memory_order_relaxed);
    return arg;
}

int main(void) {
    semaphores = semget(IPC_PRIVATE, 3, 0600);
    queue = msgget(IPC_PRIVATE, 0600);
    semctl(semaphores, kLock, SETVAL, 1);
    pthread_t t[5];
    pthread_create(&t[0], NULL, locker, NULL);
    pthread_create(&t[1], NULL, locker, NULL);
    pthread_create(&t[2], NULL, record_filler, NULL);
    pthread_create(&t[3], NULL, sender, NULL);
    pthread_create(&t[4], NULL, segment_user, NULL);

    struct sembuf wait_record = {kRecordReady, -1, 0};
    struct timespec limit = {10, 0};
    while (semtimedop(semaphores, &wait_record, 1, &limit) != 0) {
    }
    long seen = record;
    while (semctl(semaphores, kPolled, GETVAL) != 1)
        usleep(100);
    seen += polled_record;
    for (int i = 0; i < 8; ++i) {
        struct message m;
        while (msgrcv(queue, &m, sizeof m.index, 0, 0) < 0) {
        }
        seen += messages[m.index];
    }
    while (!atomic_load_explicit(&detached, memory_order_relaxed))
        usleep(100);
    int id = shmget(IPC_PRIVATE, 1 << 16, 0600);
    char* p = shmat(id, NULL, 0);
    shmctl(id, IPC_RMID, NULL);
    memset(p, 2, 1 << 16);
    seen += p[7];
    shmdt(p);

    for (int i = 0; i < 5; ++i)
        pthread_join(t[i], NULL);
    semctl(semaphores, 0, IPC_RMID);
    msgctl(queue, IPC_RMID, NULL);
    printf("%ld %ld\n", counter, seen);
    return 0;
}
