// Cancelled threads and their cleanup handlers. A waiter cancelled in pthread_cond_wait holds
// the mutex again before its first cleanup handler runs (POSIX XSH pthread_cond_wait), so the
// handler's update of the state the mutex protects is ordered after main's, made under the
// mutex before the cancel (the runtime missed that re-acquisition: the cancellation unwinds
// out of the interposed wait). A looper is cancelled at pthread_testcancel; a spinner with
// asynchronous cancellation is cancelled anywhere, also inside the runtime's access path or an
// atomic's slow path (the runtime defers glibc's cancellation signal there; before, the
// spinner's end was lost: a truncated trace). Main reads what the threads and their handlers
// wrote after joining them. No race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int requests;  // under lock
static int cleaned;   // under lock
static long progress; // the looper's, read after the join
static atomic_int waiting, spinning;
static atomic_long ticks; // the spinner's and main's
static long spun[64];     // the spinner's own

static void unlock_and_clean(void* arg) {
    (void)arg;
    cleaned = requests + 1; // the cancelled wait holds the lock again
    pthread_mutex_unlock(&lock);
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
    for (int i = 0; i < 1000; i++) // meanwhile the spinner's atomics meet main's
        atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
    pthread_mutex_lock(&lock);
    requests = 41;
    pthread_mutex_unlock(&lock);
    pthread_cancel(w);
    pthread_cancel(l);
    pthread_cancel(s);
    void* rw;
    void* rl;
    void* rs;
    pthread_join(w, &rw);
    pthread_join(l, &rl);
    pthread_join(s, &rs);
    pthread_mutex_lock(&lock);
    const int c = cleaned;
    pthread_mutex_unlock(&lock);
    printf("cleaned %d, looper %s, spinner %s\n", c, progress > 1000 ? "ran" : "idle",
           spun[0] >= 0 && atomic_load(&ticks) > 1000 ? "ran" : "idle");
    return rw == PTHREAD_CANCELED && rl == PTHREAD_CANCELED && rs == PTHREAD_CANCELED && c == 42
               ? 0
               : 1;
}
