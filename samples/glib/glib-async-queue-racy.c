// glib-async-queue where the producers set the payload of a message after pushing it: the
// consumer reads it unordered (a message popped is ordered after its push only). The other
// fields, written before the push, stay race-free.
#include <glib.h>
#include <stdio.h>

#define PER_PRODUCER 200

struct message {
    int producer, seq;
    long payload;
};

static GAsyncQueue* queue;

static gpointer producer(gpointer arg) {
    const int id = GPOINTER_TO_INT(arg);
    for (int i = 0; i < PER_PRODUCER; ++i) {
        struct message* m = g_new0(struct message, 1);
        m->producer = id;
        m->seq = i;
        if (i % 3 == 0) {
            g_async_queue_push(queue, m);
        } else if (i % 3 == 1) {
            g_async_queue_push_front(queue, m);
        } else {
            g_async_queue_lock(queue);
            g_async_queue_push_unlocked(queue, m);
            g_async_queue_unlock(queue);
        }
        if (i == PER_PRODUCER - 1) g_usleep(2000);             /* the consumer takes it meanwhile */
        m->payload = (long)id * 1000 + i; /* after the push */ // RACE
    }
    return NULL;
}

static gpointer consumer(gpointer arg) {
    long* sum = arg;
    for (int taken = 0; taken < 2 * PER_PRODUCER; ++taken) {
        struct message* m;
        if (taken % 3 == 0) {
            while ((m = g_async_queue_try_pop(queue)) == NULL)
                g_thread_yield();
        } else if (taken % 3 == 1) {
            while ((m = g_async_queue_timeout_pop(queue, 1000)) == NULL) {
            }
        } else {
            m = g_async_queue_pop(queue);
        }
        *sum += m->payload + m->seq + m->producer; // RACE
    }
    return NULL;
}

int main(void) {
    long sum = 0;
    queue = g_async_queue_new();
    GThread* c = g_thread_new("consumer", consumer, &sum);
    GThread* p1 = g_thread_new("producer", producer, GINT_TO_POINTER(1));
    GThread* p2 = g_thread_new("producer", producer, GINT_TO_POINTER(2));
    g_thread_join(p1);
    g_thread_join(p2);
    g_thread_join(c);
    g_async_queue_unref(queue);
    printf("sum %ld\n", sum);
    return 0;
}
