// GThreadPool: main writes each item and a shared scale before pushing the items to a pool of
// three threads (libglib hands them over through its own queue); the tasks update their items;
// main reads the items after g_thread_pool_free(pool, FALSE, TRUE), which waits for every
// task. A second, exclusive pool (g_thread_pool_new_full, two threads of its own) squares the
// items into slots that main reads after its free too.
#include <glib.h>
#include <stdio.h>

#define ITEMS 16

static int scale;
static long items[ITEMS];
static long squares[ITEMS];

static void task(gpointer data, gpointer user_data) {
    long* item = data;
    const int offset = GPOINTER_TO_INT(user_data);
    *item = *item * scale + offset;
}

static void square(gpointer data, gpointer user_data) {
    (void)user_data;
    const long i = GPOINTER_TO_INT(data) - 1;
    squares[i] = items[i] * items[i];
}

int main(void) {
    scale = 3;
    GThreadPool* pool = g_thread_pool_new(task, GINT_TO_POINTER(1), 3, FALSE, NULL);
    for (int i = 0; i < ITEMS; ++i) {
        items[i] = i;
        g_thread_pool_push(pool, &items[i], NULL);
    }
    g_thread_pool_free(pool, FALSE, TRUE);
    long sum = 0;
    for (int i = 0; i < ITEMS; ++i)
        sum += items[i];

    GThreadPool* second = g_thread_pool_new_full(square, NULL, NULL, 2, TRUE, NULL);
    for (int i = 0; i < ITEMS; ++i)
        g_thread_pool_push(second, GINT_TO_POINTER(i + 1), NULL);
    g_thread_pool_free(second, FALSE, TRUE);
    for (int i = 0; i < ITEMS; ++i)
        sum += squares[i];
    printf("sum %ld\n", sum);
    return 0;
}
