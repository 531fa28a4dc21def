// glib-cond where the producer fills each slot after publishing it (count and signal under the
// mutex, then the slot outside): the consumer may read the slot before it is written. The
// producer waits until the consumer took the first batch before it sends the second: the last
// slot of each batch is read unordered with its write in every run.
#include <glib.h>
#include <stdio.h>

#define COUNT 50

static GMutex mutex;
static GCond nonempty;
static GMutex drain_lock; /* another mutex: the hand-back orders no slot */
static GCond drained;     /* the consumer took the first batch */
static int first_batch_taken;
static int slots[2 * COUNT];
static int produced;

static gpointer consumer(gpointer arg) {
    long* sum = arg;
    for (int taken = 0; taken < COUNT; ++taken) {
        g_mutex_lock(&mutex);
        while (produced <= taken)
            g_cond_wait(&nonempty, &mutex);
        g_mutex_unlock(&mutex);
        *sum += slots[taken]; // RACE
    }
    g_mutex_lock(&drain_lock);
    first_batch_taken = 1;
    g_cond_signal(&drained);
    g_mutex_unlock(&drain_lock);
    for (int taken = COUNT; taken < 2 * COUNT; ++taken) {
        g_mutex_lock(&mutex);
        while (produced <= taken)
            g_cond_wait_until(&nonempty, &mutex, g_get_monotonic_time() + G_TIME_SPAN_SECOND);
        g_mutex_unlock(&mutex);
        *sum += slots[taken]; // RACE
    }
    return NULL;
}

static gpointer producer(gpointer arg) {
    (void)arg;
    for (int i = 0; i < 2 * COUNT; ++i) {
        g_mutex_lock(&mutex);
        produced++;
        if (i < COUNT)
            g_cond_signal(&nonempty);
        else
            g_cond_broadcast(&nonempty);
        g_mutex_unlock(&mutex);
        if (i % 10 == 9) g_usleep(1000); /* the consumer reads the slot meanwhile */
        slots[i] = i * 3; /* filled after it was published */ // RACE
        if (i == COUNT - 1) {
            g_mutex_lock(&drain_lock);
            while (!first_batch_taken)
                g_cond_wait(&drained, &drain_lock);
            g_mutex_unlock(&drain_lock);
        }
    }
    return NULL;
}

int main(void) {
    long sum = 0;
    GThread* c = g_thread_new("consumer", consumer, &sum);
    GThread* p = g_thread_new("producer", producer, NULL);
    g_thread_join(p);
    g_thread_join(c);
    printf("sum %ld\n", sum);
    return 0;
}
