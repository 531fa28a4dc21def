// BUILD-FLAGS: -D_FILE_OFFSET_BITS=64 -D_FORTIFY_SOURCE=2
// Built with -D_FILE_OFFSET_BITS=64 (large-file programs: autotools' default), the C library's
// headers call the 64 names: creat64, openat64, pwrite64, pread64 (__pread64_chk when fortified,
// -O1 and up), preadv64, pwritev64. A writer fills a record and writes it to a file through its
// own open; main polls the file through another open until it is there, then reads the record's
// copy and the writer's note. The read that returns the data is ordered after the write.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

static char path[64];
static int record[4];
static int note;

static void* writer(void* arg) {
    (void)arg;
    int hold = open("/dev/null", O_RDONLY); // the writer's descriptor gets another number
    for (int i = 0; i < 4; ++i)
        record[i] = i + 1;
    note = 7;
    int fd = openat(AT_FDCWD, path, O_WRONLY);
    struct iovec iov = {record, sizeof record};
    if (pwritev(fd, &iov, 1, 4) != (ssize_t)sizeof record) note = -1;
    const char mark = 'x';
    if (pwrite(fd, &mark, 1, 0) != 1) note = -1;
    close(fd);
    close(hold);
    return NULL;
}

int main(void) {
    snprintf(path, sizeof path, "/tmp/fd-large-file-offsets.%d", getpid());
    close(creat(path, 0600));
    int fd = open(path, O_RDONLY);
    pthread_t w;
    pthread_create(&w, NULL, writer, NULL);
    char mark = 0;
    while (pread(fd, &mark, 1, 0) != 1)
        usleep(1000);
    int copy[4];
    struct iovec iov = {copy, sizeof copy};
    const ssize_t got = preadv(fd, &iov, 1, 4);
    const int seen = note;
    pthread_join(w, NULL);
    close(fd);
    unlink(path);
    printf("%zd %d %d %d\n", got, copy[0] + copy[3], seen, mark);
    return 0;
}
