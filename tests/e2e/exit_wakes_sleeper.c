// A worker calls exit(0) while main sleeps: untraced, the process ends with status 0 and main
// never wakes. The runtime's exit flush signals main; its sleep must not end early because of
// it (main would print and return 3).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void* worker(void* arg) {
    (void)arg;
    usleep(50 * 1000);
    exit(0);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    sleep(20);
    fprintf(stderr, "main woke early\n");
    return 3;
}
