// file-lock-ofd where one writer takes a POSIX record lock (F_SETLKW) instead: record locks
// belong to the process (XSH fcntl), so that writer never waits for the threads holding OFD
// locks, nor they for it: its updates race with the other writers' and the reader's.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char path[64];
long counter;

static void lock(int fd, int command, short type) {
    struct flock request = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(fd, command, &request) != 0) {
    }
}

static void* writer(void* arg) {
    int fd = open(path, O_RDWR);
    const int locking = arg != NULL ? F_SETLKW : F_OFD_SETLKW; // the process's lock
    const int unlocking = arg != NULL ? F_SETLK : F_OFD_SETLK;
    for (int i = 0; i < 100; ++i) {
        lock(fd, locking, F_WRLCK);
        counter++; // RACE
        lock(fd, unlocking, F_UNLCK);
    }
    close(fd);
    return NULL;
}

static void* reader(void* arg) {
    (void)arg;
    int fd = open(path, O_RDONLY);
    long seen = 0;
    for (int i = 0; i < 100; ++i) {
        lock(fd, F_OFD_SETLKW, F_RDLCK);
        seen += counter; // RACE
        lock(fd, F_OFD_SETLK, F_UNLCK);
    }
    close(fd);
    return (void*)seen;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/file-lock-ofd.%d", getpid());
    close(open(path, O_CREAT | O_RDWR, 0600));
    pthread_t t[3];
    pthread_create(&t[0], NULL, writer, NULL);
    pthread_create(&t[1], NULL, writer, path);
    pthread_create(&t[2], NULL, reader, NULL);
    void* seen;
    for (int i = 0; i < 3; ++i)
        pthread_join(t[i], i == 2 ? &seen : NULL);
    unlink(path);
    printf("%ld %ld\n", counter, (long)seen);
    return 0;
}
