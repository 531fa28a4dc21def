/* Runs a call so that the runtime sees an unwind pass through it: an exception from the
 * program's code (std::call_once whose callable throws: C++20 [thread.once.callonce], an
 * exceptional execution, after which the next call runs the callable again and is
 * synchronized with it) or a cancellation acted upon inside the call (glibc unwinds a
 * cancelled thread with _Unwind_ForcedUnwind: a pthread_cond_wait cancelled in its wait
 * returns holding the mutex, POSIX XSH pthread_cond_wait, and the unwind then runs the
 * program's cleanup handlers).
 * The runtime's C++ is built without exceptions: an unwind passes through its frames without
 * running anything. This file is C built with -fexceptions, where a cleanup attribute is a
 * landing pad (as glibc's pthread_cleanup_push): `on_unwind` runs while the unwind passes,
 * and the unwinding goes on. */
#include <stdbool.h>

struct frt_unwind_watch {
    void (*body)(void* arg);
    void (*on_unwind)(void* arg);
    void* arg;
    bool returned;
};

static void frt_unwind_passed(struct frt_unwind_watch** watch) {
    if (!(*watch)->returned) (*watch)->on_unwind((*watch)->arg);
}

__attribute__((visibility("hidden"))) void frt_run_watching_unwind(struct frt_unwind_watch* w) {
    struct frt_unwind_watch* running __attribute__((cleanup(frt_unwind_passed))) = w;
    running->body(running->arg);
    running->returned = true;
}
