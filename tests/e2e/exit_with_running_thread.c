// Ends with _exit() while a second thread is still running: the trace must stay readable,
// flagged truncated, with what the main thread did.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <unistd.h>

static volatile int shared[64];

static void* spinner(void* arg) {
    (void)arg;
    for (;;) {
        for (int i = 0; i < 64; ++i)
            shared[i] += 1;
        usleep(1000);
    }
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, spinner, NULL);
    for (int i = 0; i < 64; ++i)
        shared[i] = i;
    usleep(20000);
    _exit(3);
}
