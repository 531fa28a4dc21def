/* Runs a pthread_once init routine so that the runtime sees it exit by an exception
 * (std::call_once whose callable throws: C++20 [thread.once.callonce], an exceptional
 * execution, after which the next call runs the callable again and is synchronized with it).
 * The runtime's C++ is built without exceptions: an exception passes through its frames
 * without running anything. This file is C built with -fexceptions, where a cleanup
 * attribute is a landing pad (as glibc's pthread_cleanup_push): `on_unwind` runs while the
 * exception passes, and the unwinding goes on. */
#include <stdbool.h>

struct frt_once_call {
    void (*routine)(void);
    void (*on_unwind)(void* arg);
    void* arg;
    bool returned;
};

static void frt_once_unwound(struct frt_once_call** call) {
    if (!(*call)->returned) (*call)->on_unwind((*call)->arg);
}

__attribute__((visibility("hidden"))) void frt_once_run(struct frt_once_call* call) {
    struct frt_once_call* running __attribute__((cleanup(frt_once_unwound))) = call;
    running->routine();
    running->returned = true;
}
