// A message queue whose producer never synchronizes with the consumer that frees the messages:
// Vyukov's intrusive MPSC queue, the producer (main) publishing each message with an exchange
// and a release store, the consumer reading it after an acquire load and freeing the node
// before. Every message after the first few reuses a block the consumer freed, so the same few
// addresses start 10^5 lifetimes (DESIGN-NOTES "Lifetimes of reused memory"): a reuse is no
// ordering of the two threads, each lifetime of the bytes is a variable of its own. Keys name a
// lifetime in 15 bits; numbered globally, lifetimes 32 767 apart shared a key and the consumer's
// reads and frees of one incarnation raced with the producer's writes to a much later one (~600
// false races per run). A lifetime's number is now the generation of its bytes, and a reuse past
// the last key orders the threads as the allocator does (C11 7.22.3p2).
// The racy variant: the producer fills the last message after publishing it, unordered with
// the consumer's read.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { kMessages = 100000 };

struct node {
    _Atomic(struct node*) next;
    int data[12];
};

static struct node stub;
static _Atomic(struct node*) head = &stub; // the producer's end
static struct node* tail = &stub;          // the consumer's end

static void push(struct node* n) {
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    struct node* prev = atomic_exchange_explicit(&head, n, memory_order_acq_rel);
    atomic_store_explicit(&prev->next, n, memory_order_release);
}

static void* consumer(void* arg) {
    long sum = 0;
    for (int got = 0; got < kMessages;) {
        struct node* t = tail;
        struct node* next = atomic_load_explicit(&t->next, memory_order_acquire);
        if (next == NULL) {
            sched_yield();
            continue;
        }
        sum += next->data[3]; // RACE
        tail = next;
        if (t != &stub) free(t);
        ++got;
    }
    *(long*)arg = sum;
    return NULL;
}

int main(void) {
    long sum = 0;
    pthread_t t;
    pthread_create(&t, NULL, consumer, &sum);
    for (int i = 0; i < kMessages; ++i) {
        struct node* n = malloc(sizeof *n);
        for (int j = 0; j < 12; ++j)
            n->data[j] = i;
        push(n);
        if (i == kMessages - 1) n->data[3] = -1; // RACE
        if ((i & 63) == 0) sched_yield();
    }
    pthread_join(t, NULL);
    return sum == 0;
}
