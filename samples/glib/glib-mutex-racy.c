// glib-mutex with two mistakes: thread b updates the counter without taking the GMutex, and
// the readers of the GRWLock table count their reads in a shared statistic under the read lock
// (readers hold it together). The other locks (GMutex by trylock, GRecMutex) stay race-free.
// Main writes the table before the threads start (a writer between the readers would order one
// reader's reads before the other's when the first thread ran alone: the race of a run).
#include <glib.h>
#include <stdio.h>

#define ROUNDS 2000

static GMutex lock;
static long counter;

struct account {
    GMutex m;
    long balance;
};
static struct account acc;

static GRecMutex rec;
static long nested;

static GRWLock table_lock;
static int table[8];
static long reads;

static void add_nested(int depth) {
    g_rec_mutex_lock(&rec);
    if (depth > 0)
        add_nested(depth - 1);
    else
        nested++;
    g_rec_mutex_unlock(&rec);
}

static gpointer worker(gpointer arg) {
    const int careless = GPOINTER_TO_INT(arg);
    long seen = 0;
    for (int i = 0; i < ROUNDS; ++i) {
        g_rw_lock_reader_lock(&table_lock);
        seen += table[i % 8];
        reads++; // RACE
        g_rw_lock_reader_unlock(&table_lock);
        if (careless) {
            counter++; // RACE
        } else {
            g_mutex_lock(&lock);
            counter++; // RACE
            g_mutex_unlock(&lock);
        }
        while (!g_mutex_trylock(&acc.m))
            g_thread_yield();
        acc.balance += 2;
        g_mutex_unlock(&acc.m);
        if (i % 50 == 0) add_nested(2);
    }
    return GINT_TO_POINTER(seen > 0);
}

int main(void) {
    g_mutex_init(&acc.m);
    acc.balance = 0;
    for (int i = 0; i < ROUNDS / 4; ++i) {
        g_rw_lock_writer_lock(&table_lock);
        table[i % 8] += i;
        g_rw_lock_writer_unlock(&table_lock);
    }
    GThread* a = g_thread_new("a", worker, GINT_TO_POINTER(0));
    GThread* b = g_thread_new("b", worker, GINT_TO_POINTER(1));
    g_thread_join(a);
    g_thread_join(b);
    g_mutex_clear(&acc.m);
    printf("counter %ld balance %ld nested %ld reads %ld\n", counter, acc.balance, nested, reads);
    return 0;
}
