// Synchronization the tracer cannot see by itself, described with ThreadSanitizer's annotation
// API: a hand-made spin lock on relaxed atomics announced with __tsan_mutex_*, a message
// handed over through a relaxed flag with AnnotateHappensBefore/After, a statistics counter
// whose races are declared benign, and a debug trace written with writes ignored.
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <stdio.h>

void AnnotateHappensBefore(const char* file, int line, const volatile void* addr);
void AnnotateHappensAfter(const char* file, int line, const volatile void* addr);
void AnnotateBenignRaceSized(const char* file, int line, const volatile void* addr,
                             unsigned long size, const char* description);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);
void AnnotateThreadName(const char* file, int line, const char* name);
void __tsan_mutex_create(void* addr, unsigned flags);
void __tsan_mutex_pre_lock(void* addr, unsigned flags);
void __tsan_mutex_post_lock(void* addr, unsigned flags, int recursion);
int __tsan_mutex_pre_unlock(void* addr, unsigned flags);
void __tsan_mutex_post_unlock(void* addr, unsigned flags);

// A spin lock whose atomics are relaxed: by themselves they order nothing.
typedef struct {
    int held;
} spin_t;
static void spin_lock(spin_t* s) {
    __tsan_mutex_pre_lock(s, 0);
    while (__atomic_exchange_n(&s->held, 1, __ATOMIC_RELAXED)) {
    }
    __tsan_mutex_post_lock(s, 0, 0);
}
static void spin_unlock(spin_t* s) {
    __tsan_mutex_pre_unlock(s, 0);
    __atomic_store_n(&s->held, 0, __ATOMIC_RELAXED);
    __tsan_mutex_post_unlock(s, 0);
}

static spin_t lock;
static long balance;
static long message[16];
static int message_ready;
static long statistics; // approximate on purpose
static char debug_trace[64];

static void* producer(void* arg) {
    (void)arg;
    AnnotateThreadName(__FILE__, __LINE__, "producer");
    for (int i = 0; i < 16; ++i)
        message[i] = i * 3;
    AnnotateHappensBefore(__FILE__, __LINE__, &message_ready);
    __atomic_store_n(&message_ready, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < 100; ++i) {
        spin_lock(&lock);
        balance += 2;
        spin_unlock(&lock);
        statistics++;
    }
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
    debug_trace[0] = 'p';
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    return NULL;
}

static void* consumer(void* arg) {
    long* sum = arg;
    while (!__atomic_load_n(&message_ready, __ATOMIC_RELAXED)) {
    }
    AnnotateHappensAfter(__FILE__, __LINE__, &message_ready);
    for (int i = 0; i < 16; ++i)
        *sum += message[i];
    for (int i = 0; i < 100; ++i) {
        spin_lock(&lock);
        balance -= 1;
        spin_unlock(&lock);
        statistics++;
    }
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
    debug_trace[0] = 'c';
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    return NULL;
}

int main(void) {
    __tsan_mutex_create(&lock, 0);
    AnnotateBenignRaceSized(__FILE__, __LINE__, &statistics, sizeof statistics, "statistics");
    long sum = 0;
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, &sum);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("sum %ld balance %ld statistics %ld\n", sum, balance, statistics);
    return 0;
}
