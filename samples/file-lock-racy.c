// file-lock with a writer that bumps the counter without the lock: it races with the other
// writers and the reader, whose locks order only each other.
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
    int fd = open(path, O_RDWR);
    for (int i = 0; i < 100; ++i) {
        if (arg != NULL) { // forgets the lock
            counter++;     // RACE
            continue;
        }
        flock(fd, LOCK_EX);
        counter++; // RACE
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
        seen += counter; // RACE
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
        counter += 2; // RACE
        close(fd);    // releases the lock
    }
    return NULL;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/file-lock.%d", getpid());
    close(open(path, O_CREAT | O_RDWR, 0600));
    pthread_t t[4];
    pthread_create(&t[0], NULL, writer, NULL);
    pthread_create(&t[1], NULL, writer, path);
    pthread_create(&t[2], NULL, reader, NULL);
    pthread_create(&t[3], NULL, closing_writer, NULL);
    void* seen;
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], i == 2 ? &seen : NULL);
    unlink(path);
    printf("%ld %ld\n", counter, (long)seen);
    return 0;
}
