// GLib's bit locks (atomic instructions inside libglib): two locks in one word, bit 0 for one
// counter and bit 1 for another (they exclude nobody of each other), g_bit_trylock, and a
// pointer bit lock on bit 0 of a pointer whose object it protects.
#include <glib.h>
#include <stdio.h>

#define ROUNDS 2000

static volatile gint flags;
static long first, second;

struct node {
    long hits;
};
static struct node shared_node;
static gpointer node_ptr = &shared_node;

static gpointer worker(gpointer arg) {
    (void)arg;
    for (int i = 0; i < ROUNDS; ++i) {
        g_bit_lock(&flags, 0);
        first++;
        g_bit_unlock(&flags, 0);
        while (!g_bit_trylock(&flags, 1))
            g_thread_yield();
        second += 2;
        g_bit_unlock(&flags, 1);
        g_pointer_bit_lock(&node_ptr, 0);
        struct node* n = (struct node*)((gsize)node_ptr & ~(gsize)1);
        n->hits++;
        g_pointer_bit_unlock(&node_ptr, 0);
    }
    return NULL;
}

int main(void) {
    GThread* a = g_thread_new("a", worker, NULL);
    GThread* b = g_thread_new("b", worker, NULL);
    g_thread_join(a);
    g_thread_join(b);
    printf("%ld %ld %ld\n", first, second, shared_node.hits);
    return 0;
}
