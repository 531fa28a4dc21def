// A detached task completes when its event is fulfilled: the fulfilling task writes `extra`
// after omp_fulfill_event, unordered with the task that depends on the detached one.
// CLANG-ONLY: libomp 14's GOMP_task ignores gcc's detach (the event handle is never written)
#include <omp.h>
#include <stdio.h>

int main(void) {
    int data = 0, extra = 0, more = 0, seen = 0;
    // libomp 14 aborts a team of one that has a detached task: at least two threads
    const int threads = omp_get_max_threads() > 1 ? omp_get_max_threads() : 2;
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
        omp_event_handle_t event;
#pragma omp task depend(out : data) detach(event) shared(data)
        data = 1;
#pragma omp task shared(extra, more) firstprivate(event)
        {
            omp_fulfill_event(event);
            extra = 2; // RACE
            more = 3;
        }
#pragma omp task depend(in : data) shared(data, extra, seen)
        seen = data + extra; // RACE
#pragma omp taskwait
        seen += more;
    }
    printf("%d\n", seen);
    return 0;
}
