// Locks made afresh where old ones were, in two phases ordered by joins: main allocates a
// record holding a mutex, a read-write lock and a spin lock (above the mmap threshold: the
// second phase's record is mapped where the first one was), initializes them, and two workers
// update tallies under each; main joins them, destroys the locks and frees the record. A
// static mutex is destroyed and initialized again between the phases. Each init starts a new
// lock (mutex-reuse-racy.c), and every operation of a phase pairs with its own phase's lock.
// No race.
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRecordSize = 256 * 1024, kRounds = 500 };
struct record {
    pthread_mutex_t lock;
    pthread_rwlock_t table_lock;
    pthread_spinlock_t spin;
    long tally, table, spun;
    char payload[kRecordSize - 256];
};

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static long passed; // under gate

static void* worker(void* arg) {
    struct record* r = arg;
    for (int i = 0; i < kRounds; i++) {
        pthread_mutex_lock(&r->lock);
        r->tally++;
        pthread_mutex_unlock(&r->lock);
        if (i % 10 == 0) {
            pthread_rwlock_wrlock(&r->table_lock);
            r->table++;
        } else {
            pthread_rwlock_rdlock(&r->table_lock);
            (void)r->table;
        }
        pthread_rwlock_unlock(&r->table_lock);
        pthread_spin_lock(&r->spin);
        r->spun++;
        pthread_spin_unlock(&r->spin);
        pthread_mutex_lock(&gate);
        passed++;
        pthread_mutex_unlock(&gate);
    }
    return NULL;
}

static long phase(void** where) {
    struct record* r = malloc(sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_rwlock_init(&r->table_lock, NULL);
    pthread_spin_init(&r->spin, PTHREAD_PROCESS_PRIVATE);
    r->tally = r->table = r->spun = 0;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, r);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    const long sum = r->tally + r->table + r->spun;
    pthread_spin_destroy(&r->spin);
    pthread_rwlock_destroy(&r->table_lock);
    pthread_mutex_destroy(&r->lock);
    *where = r;
    free(r);
    return sum;
}

int main(void) {
    mallopt(M_MMAP_THRESHOLD, 64 * 1024); // fixed: every record is a mapping of its own
    void* first;
    void* second;
    const long a = phase(&first);
    pthread_mutex_destroy(&gate);
    pthread_mutex_init(&gate, NULL);
    const long b = phase(&second);
    printf("phases %ld %ld, passed %ld, record address %s\n", a, b, passed,
           first == second ? "reused" : "not reused");
    return a == b && passed == 4L * kRounds ? 0 : 1;
}
