// What a created thread starts with, and whether it started before the trace ended
// (rt_thread_start_args.cpp).
#pragma once

#include <signal.h>

#include "rt_internal.hpp"

namespace frt {

struct StartArgs {
    void* (*fn)(void*);
    void* arg;
    u32 pid;
    u32 parent;
    StartArgs* next;
    sigset_t mask; // the new thread's signal mask once it is registered (see pthread_create)
    std::atomic<u32> state;
};

// For pthread_create (null when no memory can be mapped), filled and then marked created; the
// new thread frees it once it has registered, the creator when the creation failed.
StartArgs* new_start_args();
void start_args_created(StartArgs* a);
void free_start_args(StartArgs* a);
// The new thread, before it registers: false when the trace ended before (it is not traced).
bool start_args_claimed(StartArgs* a);
// At the trace's end: `each` is called with the process id of every thread created but not
// started (it has recorded nothing; with `claim`, it will not register: it starts after the
// end), then returns once the threads that are registering have (bounded).
void list_unstarted_threads(bool claim, void (*each)(u32 pid));
// Fork child: the threads being started are the parent's.
void start_args_after_fork();

// While a library function that creates a thread through pthread_create runs (g_thread_new,
// rt_glib.cpp): the program's call site of it, which the creation's Fork record carries instead
// of the library's own call of pthread_create (reports name it: "created by main at x.c:12").
// 0 otherwise.
extern __thread u64 tls_library_creation_pc __attribute__((tls_model("initial-exec")));

} // namespace frt
