// GLib's locks from the program (libglib-2.0 is not instrumented: GMutex is a futex word whose
// uncontended lock and unlock are atomics inside libglib, GRecMutex and GRWLock allocate a
// pthread object on their first use and publish it with an atomic inside libglib): a static
// GMutex, a GMutex in a structure with g_mutex_init / g_mutex_clear taken by g_mutex_trylock,
// a static GRecMutex taken twice, a static GRWLock with readers and a writer.
#include <glib.h>
#include <stdio.h>

#define ROUNDS 2000

static GMutex lock; /* static: no g_mutex_init */
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

static void add_nested(int depth) {
    g_rec_mutex_lock(&rec);
    if (depth > 0)
        add_nested(depth - 1);
    else
        nested++;
    g_rec_mutex_unlock(&rec);
}

static gpointer worker(gpointer arg) {
    long seen = 0;
    for (int i = 0; i < ROUNDS; ++i) {
        g_mutex_lock(&lock);
        counter++;
        g_mutex_unlock(&lock);
        while (!g_mutex_trylock(&acc.m))
            g_thread_yield();
        acc.balance += 2;
        g_mutex_unlock(&acc.m);
        if (i % 50 == 0) add_nested(2);
        g_rw_lock_reader_lock(&table_lock);
        seen += table[i % 8];
        g_rw_lock_reader_unlock(&table_lock);
    }
    return GINT_TO_POINTER(seen > 0);
}

int main(void) {
    g_mutex_init(&acc.m);
    acc.balance = 0;
    GThread* a = g_thread_new("a", worker, NULL);
    GThread* b = g_thread_new("b", worker, NULL);
    for (int i = 0; i < ROUNDS / 4; ++i) {
        g_rw_lock_writer_lock(&table_lock);
        table[i % 8] += i;
        g_rw_lock_writer_unlock(&table_lock);
    }
    g_thread_join(a);
    g_thread_join(b);
    g_mutex_clear(&acc.m);
    printf("counter %ld balance %ld nested %ld table %d\n", counter, acc.balance, nested, table[1]);
    return 0;
}
