// A FIFO and a regular file opened separately by two threads (each open is an open file
// description of its own): what one thread writes to the file system object, the other reads
// through its own open, so the write is ordered before the read that gets the data. The FIFO
// is one pipe whoever opened its ends; a regular file keeps what was written (POSIX XSH 2.9.7);
// a file written with stdio (the C library writes the buffer inside fclose) and opened for
// reading later holds the writer's data.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORDS 4

static char fifo_path[64], file_path[64], text_path[64], text_tmp[64];
static int records[RECORDS];
static int answer;
static struct { int width, height; } settings;

static void* producer(void* arg) {
    (void)arg;
    int fd = open(fifo_path, O_WRONLY);
    if (fd < 0) return NULL;
    for (int i = 0; i < RECORDS; ++i) {
        records[i] = i * 10;
        if (write(fd, &i, sizeof i) != sizeof i) break;
    }
    close(fd);
    return NULL;
}

static void* file_writer(void* arg) {
    (void)arg;
    int hold = open("/dev/null", O_RDONLY); // the writer's descriptor gets another number
    answer = 42;
    int fd = open(file_path, O_WRONLY);
    const char mark = 'x';
    if (pwrite(fd, &mark, 1, 0) != 1) answer = -1;
    close(fd);
    close(hold);
    return NULL;
}

static void* text_writer(void* arg) {
    (void)arg;
    settings.width = 640;
    settings.height = 480;
    FILE* f = fopen(text_tmp, "w");
    if (f == NULL) return NULL;
    fprintf(f, "ready\n");
    fclose(f);
    rename(text_tmp, text_path);
    return NULL;
}

int main(void) {
    snprintf(fifo_path, sizeof fifo_path, "/tmp/fd-file-opens.%d.fifo", getpid());
    snprintf(file_path, sizeof file_path, "/tmp/fd-file-opens.%d.file", getpid());
    snprintf(text_path, sizeof text_path, "/tmp/fd-file-opens.%d.txt", getpid());
    snprintf(text_tmp, sizeof text_tmp, "/tmp/fd-file-opens.%d.tmp", getpid());
    if (mkfifo(fifo_path, 0600) != 0) return 1;
    close(open(file_path, O_CREAT | O_TRUNC | O_WRONLY, 0600));
    int file = open(file_path, O_RDONLY);

    pthread_t p, w, t;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&w, NULL, file_writer, NULL);
    pthread_create(&t, NULL, text_writer, NULL);

    long total = 0;
    int fifo = open(fifo_path, O_RDONLY);
    int i;
    while (read(fifo, &i, sizeof i) == sizeof i)
        total += records[i];
    close(fifo);

    char mark = 0;
    while (pread(file, &mark, 1, 0) != 1)
        usleep(1000);
    const int got = answer;

    char line[16] = "";
    for (;;) {
        FILE* f = fopen(text_path, "r");
        if (f != NULL) {
            const int done = fgets(line, sizeof line, f) != NULL;
            fclose(f);
            if (done) break;
        }
        usleep(1000);
    }
    const int area = settings.width * settings.height;

    pthread_join(p, NULL);
    pthread_join(w, NULL);
    pthread_join(t, NULL);
    close(file);
    unlink(fifo_path);
    unlink(file_path);
    unlink(text_path);
    printf("total %ld, answer %d (%c), area %d\n", total, got, mark, area);
    return 0;
}
