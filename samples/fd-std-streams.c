// A program that closes stdin, stdout and stderr at its start (as daemons do) and then expects
// the lowest numbers: the three opens of /dev/null while a thread runs get 0, 1 and 2. (The
// thread's stream file was opened while 0 was free: the runtime moves its descriptors out of
// the program's way; it once kept 0, and the program's next three opens got 3, 4 and 5.) It
// then points stdout at a pipe with dup2 and stderr at it with dup3: a worker fills a record
// and reports through write(1) and write(2), main reads the report from the pipe and then the
// record (the write orders the read that gets it). No race.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int record[4];

static sem_t started, opened;

static void* idle(void* arg) {
    sem_post(&started);
    sem_wait(&opened); // alive, its stream open, while main opens /dev/null three times
    return arg;
}

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 4; ++i)
        record[i] = i + 1;
    write(STDOUT_FILENO, "ready\n", 6);
    write(STDERR_FILENO, "done\n", 5);
    return NULL;
}

int main(void) {
    close(0);
    close(1);
    close(2);
    sem_init(&started, 0, 0);
    sem_init(&opened, 0, 0);
    pthread_t t;
    pthread_create(&t, NULL, idle, NULL);
    sem_wait(&started);
    const int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY),
              err = open("/dev/null", O_WRONLY);
    sem_post(&opened);
    pthread_join(t, NULL);
    if (in != 0 || out != 1 || err != 2) return 1;
    int report[2];
    if (pipe(report) != 0 || dup2(report[1], STDOUT_FILENO) != STDOUT_FILENO ||
        dup3(report[1], STDERR_FILENO, 0) != STDERR_FILENO)
        return 2;
    pthread_t w;
    pthread_create(&w, NULL, worker, NULL);
    char line[11];
    if (read(report[0], line, 6) != 6 || memcmp(line, "ready\n", 6) != 0) return 3;
    int sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += record[i];
    pthread_join(w, NULL);
    return sum == 10 && read(report[0], line, 5) == 5 ? 0 : 4;
}
