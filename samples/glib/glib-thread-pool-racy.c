// glib-thread-pool where main does not wait for the tasks: it polls a relaxed count of the
// tasks done (no ordering) and reads the items while or after the tasks update them, and it
// sets the scale after pushing the items. The items main writes before their push, and
// what it reads after g_thread_pool_free(..., TRUE), stay race-free.
#include <glib.h>
#include <stdio.h>

#define ITEMS 16

static int scale = 1;
static long items[ITEMS];
static int done;

static void task(gpointer data, gpointer user_data) {
    long* item = data;
    (void)user_data;
    g_usleep(200);
    *item = *item * scale + 1; // RACE
    __atomic_fetch_add(&done, 1, __ATOMIC_RELAXED);
}

int main(void) {
    GThreadPool* pool = g_thread_pool_new(task, NULL, 3, FALSE, NULL);
    for (int i = 0; i < ITEMS; ++i) {
        items[i] = i;
        g_thread_pool_push(pool, &items[i], NULL);
    }
    scale = 3; /* after the pushes */ // RACE
    while (__atomic_load_n(&done, __ATOMIC_RELAXED) < ITEMS)
        g_usleep(100);
    long sum = 0;
    for (int i = 0; i < ITEMS; ++i)
        sum += items[i]; // RACE
    g_thread_pool_free(pool, FALSE, TRUE);
    for (int i = 0; i < ITEMS; ++i)
        sum += items[i];
    printf("sum %ld\n", sum);
    return 0;
}
