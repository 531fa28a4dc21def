// flock(2) between threads: each thread opens the file itself (an open file description of its
// own, which owns its lock), so LOCK_EX excludes the other threads as a write lock does and
// LOCK_SH admits readers together. Two writers bump a counter under LOCK_EX, a reader reads it
// under LOCK_SH, and a last writer lets close() release its lock.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

static char path[64];
// Not static: glibc declares flock a leaf function, across which gcc -O2 keeps a static variable
// of this file in a register (a leaf function cannot reach it), lock or no lock.
long counter;

static void* writer(void* arg) {
    (void)arg;
    int fd = open(path, O_RDWR);
    for (int i = 0; i < 100; ++i) {
        flock(fd, LOCK_EX);
        counter++;
        flock(fd, LOCK_UN);
    }
    close(fd);
    return NULL;
}

static void* reader(void* arg) {
    (void)arg;
    int fd = open(path, O_RDONLY);
    long seen = 0;
    for (int i = 0; i < 100; ++i) {
        flock(fd, LOCK_SH);
        seen += counter;
        flock(fd, LOCK_UN);
    }
    close(fd);
    return (void*)seen;
}

static void* closing_writer(void* arg) {
    (void)arg;
    for (int i = 0; i < 20; ++i) {
        int fd = open(path, O_RDWR);
        flock(fd, LOCK_EX);
        counter += 2;
        close(fd); // releases the lock
    }
    return NULL;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/file-lock.%d", getpid());
    close(open(path, O_CREAT | O_RDWR, 0600));
    pthread_t t[4];
    pthread_create(&t[0], NULL, writer, NULL);
    pthread_create(&t[1], NULL, writer, NULL);
    pthread_create(&t[2], NULL, reader, NULL);
    pthread_create(&t[3], NULL, closing_writer, NULL);
    void* seen;
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], i == 2 ? &seen : NULL);
    unlink(path);
    printf("%ld %ld\n", counter, (long)seen);
    return 0;
}
