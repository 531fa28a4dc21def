// fd-file-opens with each writer changing its data after writing to the file system object:
// the read through another open is ordered after the write (or the fclose), not after what the
// writer does next.
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
        if (write(fd, &i, sizeof i) != sizeof i) break;
        records[i] = i * 10; // RACE
    }
    close(fd);
    return NULL;
}

static void* file_writer(void* arg) {
    (void)arg;
    int hold = open("/dev/null", O_RDONLY); // the writer's descriptor gets another number
    int fd = open(file_path, O_WRONLY);
    const char mark = 'x';
    if (pwrite(fd, &mark, 1, 0) != 1) answer = -1;
    answer = 43; // RACE
    close(fd);
    close(hold);
    return NULL;
}

static void* text_writer(void* arg) {
    (void)arg;
    settings.width = 640;
    FILE* f = fopen(text_tmp, "w");
    if (f == NULL) return NULL;
    fprintf(f, "ready\n");
    fclose(f);
    rename(text_tmp, text_path);
    settings.height = 480; // RACE
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
        total += records[i]; // RACE
    close(fifo);

    char mark = 0;
    while (pread(file, &mark, 1, 0) != 1)
        usleep(1000);
    const int got = answer; // RACE

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
    const int area = settings.width * settings.height; // RACE

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
