// C11 <threads.h>: threads created with thrd_create and joined with thrd_join (their int
// results read back), a counter under an mtx_t (one worker uses mtx_trylock, one
// mtx_timedlock on a timed, recursive mutex), a hand-off through a cnd_t, a table built once
// with call_once, and tss_t storage. glibc implements these on its pthread functions without
// going through the interposed ones; the runtime interposes the C11 names themselves.
#include <stdio.h>
#include <threads.h>
#include <time.h>

enum { kWorkers = 3, kRounds = 100 };

static mtx_t counter_lock; // recursive and timed
static long counter;
static mtx_t box_lock;
static cnd_t box_filled;
static int box_value;
static int box_full;
static once_flag table_once = ONCE_FLAG_INIT;
static int table[16];
static tss_t scratch_key;

static void build_table(void) {
    for (int i = 0; i < 16; ++i)
        table[i] = i * i;
}

static void add(long v) {
    mtx_lock(&counter_lock); // taken a second time by add_twice: recursive
    counter += v;
    mtx_unlock(&counter_lock);
}

static void add_twice(long v) {
    struct timespec until;
    timespec_get(&until, TIME_UTC);
    until.tv_sec += 10;
    if (mtx_timedlock(&counter_lock, &until) != thrd_success) return;
    add(v);
    add(v);
    mtx_unlock(&counter_lock);
}

static int worker(void* arg) {
    const int id = (int)(long)arg;
    call_once(&table_once, build_table);
    static thread_local int local;
    tss_set(scratch_key, &local);
    for (int i = 0; i < kRounds; ++i) {
        if (id == 0) {
            while (mtx_trylock(&counter_lock) != thrd_success)
                thrd_yield();
            counter += table[i % 16];
            mtx_unlock(&counter_lock);
        } else if (id == 1) {
            add_twice(table[i % 16]);
        } else {
            add(table[i % 16]);
        }
        *(int*)tss_get(scratch_key) += 1;
    }
    if (id == 2) {
        mtx_lock(&box_lock);
        box_value = 42;
        box_full = 1;
        cnd_signal(&box_filled);
        mtx_unlock(&box_lock);
    }
    return id + 10;
}

int main(void) {
    mtx_init(&counter_lock, mtx_timed | mtx_recursive);
    mtx_init(&box_lock, mtx_plain);
    cnd_init(&box_filled);
    tss_create(&scratch_key, NULL);
    thrd_t threads[kWorkers];
    for (long i = 0; i < kWorkers; ++i)
        thrd_create(&threads[i], worker, (void*)i);
    mtx_lock(&box_lock);
    while (!box_full)
        cnd_wait(&box_filled, &box_lock);
    const int got = box_value;
    mtx_unlock(&box_lock);
    int results = 0;
    for (int i = 0; i < kWorkers; ++i) {
        int r = 0;
        thrd_join(threads[i], &r);
        results += r;
    }
    printf("counter %ld box %d results %d table %d\n", counter, got, results, table[15]);
    cnd_destroy(&box_filled);
    mtx_destroy(&box_lock);
    mtx_destroy(&counter_lock);
    tss_delete(scratch_key);
    return 0;
}
