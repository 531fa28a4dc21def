// glib-once with two mistakes: the initializer writes the last entry of the table after
// g_once_init_leave published it, and every thread completes the g_once configuration itself
// (a write of each thread after g_once, unordered with the others'). The entries written before
// the leave and the field the g_once function set stay race-free.
#include <glib.h>
#include <stdio.h>

#define THREADS 4

static int base; /* set by main: the table is not a constant */
static int table_storage[16];
static int* table;
static int* get_table(void) {
    static gsize initialized = 0;
    if (g_once_init_enter(&initialized)) {
        int* t = table_storage;
        for (int i = 0; i < 15; ++i)
            t[i] = i * i + base;
        table = t;
        g_once_init_leave(&initialized, 1);
        t[15] = 15 * 15 + base; /* after publishing */ // RACE
    }
    return table;
}

struct config {
    int width, height;
};
static struct config config;
static gpointer make_config(gpointer arg) {
    config.width = GPOINTER_TO_INT(arg);
    return &config;
}
static GOnce config_once = G_ONCE_INIT;

static gpointer worker(gpointer arg) {
    long* out = arg;
    struct config* c = g_once(&config_once, make_config, GINT_TO_POINTER(640));
    c->height = 2 * c->width; // RACE
    const int* t = get_table();
    *out = t[14] + t[15] + c->width; // RACE
    return NULL;
}

int main(int argc, char** argv) {
    (void)argv;
    base = argc;
    long results[THREADS];
    GThread* threads[THREADS];
    for (int i = 0; i < THREADS; ++i)
        threads[i] = g_thread_new("worker", worker, &results[i]);
    for (int i = 0; i < THREADS; ++i)
        g_thread_join(threads[i]);
    printf("%ld %ld\n", results[0], results[THREADS - 1]);
    return 0;
}
