// Threads that each open, read and close files of their own: the kernel hands the lowest free
// number out again, so the few numbers in use are reused hundreds of times by threads that
// never synchronize (drd's concurrent_close test: 256 threads opening /dev/null). Each open
// starts a new incarnation of its number; the runtime keeps 256 of them apart per number and
// orders the 257th after the close of the one whose byte it takes over. No race.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

enum { kThreads = 8, kRounds = 100 };

static void* churn(void* arg) {
    long* bytes = arg;
    for (int i = 0; i < kRounds; ++i) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd < 0) return NULL;
        char c;
        *bytes += read(fd, &c, 1); // 0: end of file
        close(fd);
    }
    return NULL;
}

int main(void) {
    pthread_t t[kThreads];
    long bytes[kThreads] = {0};
    for (int i = 0; i < kThreads; ++i)
        pthread_create(&t[i], NULL, churn, &bytes[i]);
    long total = 0;
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(t[i], NULL);
        total += bytes[i];
    }
    printf("%d opens, %ld bytes read\n", kThreads * kRounds, total);
    return 0;
}
