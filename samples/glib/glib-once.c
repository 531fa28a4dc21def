// One-time initialization with GLib: g_once_init_enter / g_once_init_leave (the macro's fast
// path is an acquire load in the program, the store that publishes is inside libglib) and
// g_once (an acquire load of once->status in the program, g_once_impl runs the function and
// publishes inside libglib). Four threads race to initialize; every one reads what was set up.
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
        for (int i = 0; i < 16; ++i)
            t[i] = i * i + base;
        table = t;
        g_once_init_leave(&initialized, 1);
    }
    return table;
}

struct config {
    int width, height;
};
static struct config config;
static gpointer make_config(gpointer arg) {
    config.width = GPOINTER_TO_INT(arg);
    config.height = 2 * config.width;
    return &config;
}
static GOnce config_once = G_ONCE_INIT;

static gpointer worker(gpointer arg) {
    long* out = arg;
    const int* t = get_table();
    const struct config* c = g_once(&config_once, make_config, GINT_TO_POINTER(640));
    *out = t[15] + c->width + c->height;
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
