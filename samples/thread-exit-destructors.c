// A thread that ends with pthread_exit runs its thread-specific-data destructors (and C++
// thread_local destructors) before it ends (POSIX XSH pthread_exit, pthread_key_create): what
// they write is ordered before the pthread_join that returns the exit value. Two workers each
// keep a record in a key; its destructor folds the record into the worker's slot of a shared
// table; main reads the table and the exit values after the joins. One worker returns from its
// start routine, the other calls pthread_exit from a nested function.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kWorkers = 2 };
struct record {
    int worker;
    int items;
};
static pthread_key_t record_key;
static int folded[kWorkers]; // written by the key destructors
static int exit_values[kWorkers];

static void fold_record(void* p) {
    struct record* r = p;
    folded[r->worker] = r->items * 10;
    free(r);
}

static void finish(int worker) {
    exit_values[worker] = worker + 100;
    pthread_exit(&exit_values[worker]);
}

static void* work(void* arg) {
    const int worker = (int)(long)arg;
    struct record* r = malloc(sizeof *r);
    r->worker = worker;
    r->items = 0;
    pthread_setspecific(record_key, r);
    for (int i = 0; i <= worker + 3; ++i)
        ((struct record*)pthread_getspecific(record_key))->items += 1;
    if (worker == 1) finish(worker);
    exit_values[worker] = worker + 100;
    return &exit_values[worker];
}

int main(void) {
    pthread_key_create(&record_key, fold_record);
    pthread_t threads[kWorkers];
    for (long i = 0; i < kWorkers; ++i)
        pthread_create(&threads[i], NULL, work, (void*)i);
    int sum = 0;
    for (int i = 0; i < kWorkers; ++i) {
        void* value;
        pthread_join(threads[i], &value);
        sum += *(int*)value + folded[i];
    }
    printf("sum %d\n", sum);
    pthread_key_delete(record_key);
    return 0;
}
