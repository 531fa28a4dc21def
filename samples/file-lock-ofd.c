// Open file description locks (Linux fcntl(2) F_OFD_SETLKW, F_OFD_SETLK): owned by the open
// file description, so two threads that open the file each exclude each other, as with a
// reader-writer lock: F_WRLCK writers, an F_RDLCK reader, F_UNLCK and close releasing. Built
// with 64-bit file offsets, so the calls go to glibc's fcntl64 (which the runtime did not
// interpose). Race-free (before: false races on the counter; clang 14 TSan reports them too).
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char path[64];
long counter; // not static: the lock calls are opaque to the compiler anyway

static void lock(int fd, short type) {
    struct flock request = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(fd, type == F_UNLCK ? F_OFD_SETLK : F_OFD_SETLKW, &request) != 0) {
    }
}

static void* writer(void* arg) {
    int fd = open(path, O_RDWR);
    for (int i = 0; i < 100; ++i) {
        lock(fd, F_WRLCK);
        counter++;
        lock(fd, F_UNLCK);
    }
    close(fd);
    return arg;
}

static void* reader(void* arg) {
    (void)arg;
    int fd = open(path, O_RDONLY);
    long seen = 0;
    for (int i = 0; i < 100; ++i) {
        lock(fd, F_RDLCK);
        seen += counter;
        lock(fd, F_UNLCK);
    }
    close(fd);
    return (void*)seen;
}

static void* closing_writer(void* arg) {
    for (int i = 0; i < 20; ++i) {
        int fd = open(path, O_RDWR);
        lock(fd, F_WRLCK);
        counter += 2;
        close(fd); // releases the lock
    }
    return arg;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/file-lock-ofd.%d", getpid());
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
