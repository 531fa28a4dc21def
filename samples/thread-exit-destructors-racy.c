// A thread that ends with pthread_exit runs its thread-specific-data destructors after the
// call: the racy main waits for a flag the worker sets just before pthread_exit and reads the
// value the destructor writes without joining first (the flag orders only what the worker did
// before setting it, not its destructors). The runtime used to end a thread's trace at
// pthread_exit, before the destructors ran: this race was missed.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct record {
    int items;
};
static pthread_key_t record_key;
static int folded; // written by the key destructor
static atomic_int about_to_exit;

static void fold_record(void* p) {
    struct record* r = p;
    folded = r->items * 10; // RACE
    free(r);
}

static void* work(void* arg) {
    (void)arg;
    struct record* r = malloc(sizeof *r);
    r->items = 3;
    pthread_setspecific(record_key, r);
    atomic_store(&about_to_exit, 1);
    pthread_exit(NULL);
}

int main(void) {
    pthread_key_create(&record_key, fold_record);
    pthread_t thread;
    pthread_create(&thread, NULL, work, NULL);
    while (!atomic_load(&about_to_exit)) {
    }
    printf("folded %d\n", folded); // RACE
    pthread_join(thread, NULL);
    return 0;
}
