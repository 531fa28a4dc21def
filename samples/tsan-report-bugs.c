// ThreadSanitizer's report_bugs flag: the program's __tsan_default_options() turns reports off
// (report_bugs=0): the unlocked counter races, and neither TSan nor firstrace reports it. The
// racy twin turns reports on again with TSAN_OPTIONS (the environment overrides the defaults).
#include <pthread.h>
#include <stdio.h>

int counter;

const char* __tsan_default_options(void) {
    return "report_bugs=0";
}

static void* worker(void* arg) {
    counter += *(int*)arg;
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
