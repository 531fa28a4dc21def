// A program that closes every descriptor above stderr, as daemons, test harnesses and programs
// that spawn children do (`for (fd = 3; fd < 65536; fd++) close(fd)`): once at its start, once
// from a thread while another thread runs. The runtime's own descriptors (the trace directory,
// the metadata, every thread's stream) are not the program's: their closes fail with EBADF,
// as for numbers that are not open, and the numbers the program gets next are the lowest ones
// (the first open after the loop gets 3). The program's own closes are modelled as before:
// the pipe a logger wrote to is closed after the logger was joined. No race. (The loop once
// closed the trace's files: "cannot write the trace (Bad file descriptor)", 0 events.)
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static int log_pipe[2];

static void close_everything(void) {
    for (int fd = 3; fd < 65536; fd++)
        close(fd);
}

static void* logger(void* arg) {
    (void)arg;
    if (write(log_pipe[1], "started\n", 8) != 8) return (void*)1;
    return NULL;
}

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void* closer(void* arg) {
    (void)arg;
    close_everything(); // while the adders run: their streams stay the runtime's
    return NULL;
}

int main(void) {
    close_everything();
    if (pipe(log_pipe) != 0 || log_pipe[0] != 3) return 1;
    pthread_t l;
    pthread_create(&l, NULL, logger, NULL);
    pthread_join(l, NULL);
    close_everything(); // the logger's write is ordered before this close by the join
    pthread_t a, b, c;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&c, NULL, closer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    const int fd = open("/dev/null", O_RDONLY);
    printf("total %ld, first descriptor %d\n", total, fd);
    return total == 3000 && fd == 3 ? 0 : 1;
}
