// After threads reused the few descriptor numbers hundreds of times (see fd-number-reuse.c),
// main opens a shared descriptor, on a number whose incarnations already wrapped around, and
// closes it while a reader may still use it: the reader's read and main's close are not
// ordered (a relaxed flag orders nothing), a race on the descriptor that the ordering of
// reused incarnations must not hide.
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

enum { kThreads = 8, kRounds = 100 };

static int shared_fd;
static atomic_int done_reading;

static void* churn(void* arg) {
    (void)arg;
    for (int i = 0; i < kRounds; ++i) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd < 0) return NULL;
        close(fd);
    }
    return NULL;
}

static void* reader(void* arg) {
    (void)arg;
    char c;
    if (read(shared_fd, &c, 1) < 0) perror("read"); // RACE
    atomic_store_explicit(&done_reading, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t t[kThreads];
    for (int i = 0; i < kThreads; ++i)
        pthread_create(&t[i], NULL, churn, NULL);
    for (int i = 0; i < kThreads; ++i)
        pthread_join(t[i], NULL);
    shared_fd = open("/dev/null", O_RDONLY);
    if (shared_fd < 0) return 1;
    pthread_t r;
    pthread_create(&r, NULL, reader, NULL);
    while (!atomic_load_explicit(&done_reading, memory_order_relaxed))
        usleep(1000);
    close(shared_fd); // RACE
    pthread_join(r, NULL);
    puts("closed");
    return 0;
}
