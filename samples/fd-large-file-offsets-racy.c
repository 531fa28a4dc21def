// BUILD-FLAGS: -D_FILE_OFFSET_BITS=64 -D_FORTIFY_SOURCE=2
// fd-large-file-offsets with the writer's note written after the mark that main polls for, and
// a peeker thread that reads the buffer pread64 fills without ordering: the calls of the 64
// names are seen (buffers written, sends and receives), so both races are found.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

static char path[64];
static int record[4];
static int note;
static char polled;

static void* peeker(void* arg) {
    (void)arg;
    usleep(1000);
    return (void*)(long)polled; // RACE
}

static void* writer(void* arg) {
    (void)arg;
    int hold = open("/dev/null", O_RDONLY); // the writer's descriptor gets another number
    for (int i = 0; i < 4; ++i)
        record[i] = i + 1;
    int fd = openat(AT_FDCWD, path, O_WRONLY);
    struct iovec iov = {record, sizeof record};
    if (pwritev(fd, &iov, 1, 4) != (ssize_t)sizeof record) note = -1;
    const char mark = 'x';
    if (pwrite(fd, &mark, 1, 0) != 1) note = -1;
    note = 7; // RACE
    close(fd);
    close(hold);
    return NULL;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/fd-large-file-offsets.%d", getpid());
    close(creat(path, 0600));
    int fd = open(path, O_RDONLY);
    pthread_t w;
    pthread_t p;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&p, NULL, peeker, NULL);
    while (pread(fd, &polled, 1, 0) != 1) // RACE
        usleep(1000);
    int copy[4];
    struct iovec iov = {copy, sizeof copy};
    const ssize_t got = preadv(fd, &iov, 1, 4);
    const int seen = note; // RACE
    pthread_join(w, NULL);
    pthread_join(p, NULL);
    close(fd);
    unlink(path);
    printf("%zd %d %d\n", got, copy[0] + copy[3], seen);
    return 0;
}
