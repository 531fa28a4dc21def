// Cancelled threads and their cleanup handlers (see thread-cancel.c), with one mistake: the
// waiter's cleanup handler unlocks the mutex before it records that it cleaned up, and main
// reads that record after the cancel without joining the waiter or taking the mutex. The
// handler's write and main's read are unordered: a race. The looper and the asynchronously
// cancelled spinner are as in the race-free variant.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int requests;  // under lock
static int cleaned;   // the handler writes it after unlocking
static long progress; // the looper's, read after the join
static atomic_int waiting, spinning;
static atomic_long ticks;
static long spun[64];

static void unlock_and_clean(void* arg) {
    (void)arg;
    const int seen = requests;
    pthread_mutex_unlock(&lock);
    cleaned = seen + 1; // RACE BUG in unlock_and_clean NAMED cleaned
}

static void* waiter(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    pthread_cleanup_push(unlock_and_clean, NULL);
    atomic_store(&waiting, 1);
    for (;;)
        pthread_cond_wait(&never, &lock);
    pthread_cleanup_pop(1);
    return NULL;
}

static void count_last(void* arg) {
    *(long*)arg += 1000;
}

static void* looper(void* arg) {
    (void)arg;
    pthread_cleanup_push(count_last, &progress);
    for (;;) {
        progress++;
        pthread_testcancel();
    }
    pthread_cleanup_pop(0);
    return NULL;
}

static void* spinner(void* arg) {
    (void)arg;
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
    atomic_store(&spinning, 1);
    for (unsigned long i = 0;; i++) {
        spun[i % 64] = (long)i;
        atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(void) {
    pthread_t w, l, s;
    pthread_create(&w, NULL, waiter, NULL);
    pthread_create(&l, NULL, looper, NULL);
    pthread_create(&s, NULL, spinner, NULL);
    while (!atomic_load(&waiting) || !atomic_load(&spinning))
        usleep(100);
    for (int i = 0; i < 1000; i++)
        atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
    pthread_mutex_lock(&lock);
    requests = 41;
    pthread_mutex_unlock(&lock);
    pthread_cancel(w);
    pthread_cancel(l);
    pthread_cancel(s);
    usleep(20000);
    const int c = cleaned; // RACE
    void* rw;
    void* rl;
    void* rs;
    pthread_join(w, &rw);
    pthread_join(l, &rl);
    pthread_join(s, &rs);
    printf("cleaned %d, looper %s, spinner %s\n", c, progress > 1000 ? "ran" : "idle",
           spun[0] >= 0 && atomic_load(&ticks) > 1000 ? "ran" : "idle");
    return rw == PTHREAD_CANCELED && rl == PTHREAD_CANCELED && rs == PTHREAD_CANCELED ? 0 : 1;
}
