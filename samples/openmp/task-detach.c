// A detached task (OpenMP 5.1 2.12.1, detach clause) completes when its body has ended and its
// event is fulfilled: the task that depends on it, and the code after the taskwait, read what
// the body and the fulfilling task wrote before omp_fulfill_event.
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
            extra = 2;
            more = 3;
            omp_fulfill_event(event);
        }
#pragma omp task depend(in : data) shared(data, extra, seen)
        seen = data + extra;
#pragma omp taskwait
        seen += more;
    }
    printf("%d\n", seen);
    return 0;
}
