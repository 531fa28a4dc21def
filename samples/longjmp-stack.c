// Non-local jumps out of nested frames (XSH longjmp, siglongjmp; glibc's _longjmp): the jump
// returns to the frame of the setjmp, and every frame below it is left without returning.
// A worker parses 300 inputs, each through a recursive descent that bails out with longjmp,
// siglongjmp or _longjmp from five frames down, then adds its count to a total under a mutex;
// main reads the total after joining. The racy variant adds without the mutex, and its report
// must show the access called from the worker: the runtime pops the frames a jump leaves from
// the shadow stack (before, each jump left its frames on it: the access showed 60 stale frames
// under it and the depth grew with every jump).
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

struct parser {
    jmp_buf bail;
    sigjmp_buf sigbail;
    int how;
};

__attribute__((noinline)) static void descend(struct parser* p, int depth) {
    if (depth == 0) {
        if (p->how == 0) longjmp(p->bail, 1);
        if (p->how == 1) siglongjmp(p->sigbail, 1);
        _longjmp(p->bail, 1);
    }
    descend(p, depth - 1);
    __asm__ volatile("" ::: "memory"); // not a tail call: one frame per level
}

__attribute__((noinline)) static int parse(struct parser* p, int input) {
    p->how = input % 3;
    if (p->how == 1) {
        if (sigsetjmp(p->sigbail, 0) != 0) return 1;
    } else if (p->how == 0) {
        if (setjmp(p->bail) != 0) return 1;
    } else if (_setjmp(p->bail) != 0) {
        return 1;
    }
    descend(p, 5);
    return 0;
}

__attribute__((noinline)) static void add_count(long n) {
    pthread_mutex_lock(&lock);
    total += n;
    pthread_mutex_unlock(&lock);
}

static void* worker(void* arg) {
    struct parser p;
    long n = 0;
    for (int i = 0; i < 300; ++i)
        n += parse(&p, i);
    add_count(n);
    return arg;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%ld\n", total);
    return 0;
}
