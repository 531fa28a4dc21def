// glib-bit-lock where thread b takes the wrong bit for the first counter: bit 1 of the word
// is another lock than bit 0 (both threads hold theirs at once), so the counter races. The
// pointer bit lock stays race-free.
#include <glib.h>
#include <stdio.h>

#define ROUNDS 2000

static volatile gint flags;
static long first;

struct node {
    long hits;
};
static struct node shared_node;
static gpointer node_ptr = &shared_node;

static gpointer worker(gpointer arg) {
    const int bit = GPOINTER_TO_INT(arg);
    for (int i = 0; i < ROUNDS; ++i) {
        g_bit_lock(&flags, bit);
        first++; // RACE
        g_bit_unlock(&flags, bit);
        g_pointer_bit_lock(&node_ptr, 0);
        struct node* n = (struct node*)((gsize)node_ptr & ~(gsize)1);
        n->hits++;
        g_pointer_bit_unlock(&node_ptr, 0);
    }
    return NULL;
}

int main(void) {
    GThread* a = g_thread_new("a", worker, GINT_TO_POINTER(0));
    GThread* b = g_thread_new("b", worker, GINT_TO_POINTER(1));
    g_thread_join(a);
    g_thread_join(b);
    printf("%ld %ld\n", first, shared_node.hits);
    return 0;
}
