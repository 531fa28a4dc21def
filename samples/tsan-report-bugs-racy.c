// ThreadSanitizer's report_bugs flag: the program's __tsan_default_options() turns reports off
// (report_bugs=0) and TSAN_OPTIONS turns them on again (TSan reads the default options first
// and the environment over them): the unlocked counter's race is reported. The race-free twin
// has no TSAN_OPTIONS: nothing is reported, by TSan or by firstrace.
// RUN-ENV: TSAN_OPTIONS=report_bugs=1
#include <pthread.h>
#include <stdio.h>

int counter;

const char* __tsan_default_options(void) {
    return "report_bugs=0";
}

static void* worker(void* arg) {
    counter += *(int*)arg; // RACE
    return NULL;
}

int main(void) {
    pthread_t t[2];
    int one = 1;
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, &one);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d\n", counter);
    return 0;
}
