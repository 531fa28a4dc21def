// User-level threads (ucontext) described to the race detector with ThreadSanitizer's fiber
// API: each fiber is a logical process of its own, and switching to a fiber orders what the
// switching code did before what the fiber does next. The scheduler and two fibers take turns
// on shared data; every switch synchronizes.
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <ucontext.h>

void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_set_fiber_name(void* fiber, const char* name);

#define STEPS 5

static ucontext_t scheduler_context, fiber_context[2];
static void* scheduler_fiber;
static void* fibers[2];
static char stacks[2][64 * 1024];
static long shared[STEPS * 2];
static int turn;

static void yield_to_scheduler(int me) {
    __tsan_switch_to_fiber(scheduler_fiber, 0);
    swapcontext(&fiber_context[me], &scheduler_context);
}

static void fiber_main(int me) {
    for (int step = 0; step < STEPS; ++step) {
        shared[turn] = me * 100 + step; // each fiber writes where the other one wrote before
        ++turn;
        yield_to_scheduler(me);
    }
    yield_to_scheduler(me);
}

int main(void) {
    scheduler_fiber = __tsan_get_current_fiber();
    for (int i = 0; i < 2; ++i) {
        getcontext(&fiber_context[i]);
        fiber_context[i].uc_stack.ss_sp = stacks[i];
        fiber_context[i].uc_stack.ss_size = sizeof stacks[i];
        fiber_context[i].uc_link = &scheduler_context;
        makecontext(&fiber_context[i], (void (*)(void))fiber_main, 1, i);
        fibers[i] = __tsan_create_fiber(0);
        __tsan_set_fiber_name(fibers[i], i ? "fiber 1" : "fiber 0");
    }
    for (int round = 0; round < STEPS; ++round)
        for (int i = 0; i < 2; ++i) {
            __tsan_switch_to_fiber(fibers[i], 0);
            swapcontext(&scheduler_context, &fiber_context[i]);
        }
    long sum = 0;
    for (int i = 0; i < STEPS * 2; ++i)
        sum += shared[i];
    for (int i = 0; i < 2; ++i)
        __tsan_destroy_fiber(fibers[i]);
    printf("turns %d sum %ld\n", turn, sum);
    return 0;
}
