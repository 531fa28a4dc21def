// The traced process: the runtime's initialisation (as soon as the runtime is loaded, or at the
// first call that reaches it, whichever comes first) and the child of fork. The end of the
// process is rt_exit.cpp.
#include <pthread.h>
#include <stdlib.h>

#include "rt_environment.hpp"
#include "rt_metadata.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_real.hpp"
#include "rt_record_buffer.hpp"
#include "rt_spare_stream.hpp"
#include "rt_sync_misuse.hpp"
#include "rt_thread_registry.hpp"
#include "rt_thread_start_args.hpp"
#include "rt_tsan_settings.hpp"

namespace frt {

std::atomic<RtState> g_state{RtState::Uninit};
u32 g_stack_depth = 64;

// The child of fork() is traced into a trace of its own, `fork-<pid>` inside the parent's
// trace directory: the parent's files and unflushed records stay the parent's, the other
// threads do not exist in the child (their states are recycled, the locks they may have held
// are free), and the forking thread continues as process 0 of the new trace.
void after_fork_in_child() {
    own_descriptors_after_fork();
    sync_objects_after_fork();
    barrier_waits_after_fork(); // rt_sync_misuse.hpp
    start_args_after_fork();
    ThreadState* self = tls_state;
    const bool traced = g_state.load(std::memory_order_acquire) == RtState::Ready && !finalized() &&
                        self != nullptr && self->guard == 0;
    g_state.store(RtState::Disabled, std::memory_order_release);
    if (!traced) {
        untraced_from_now();
        return;
    }
    self->guard = 1;
    if (!enter_fork_directory()) {
        untraced_from_now();
        return;
    }
    thread_registry_after_fork(self);
    write_fork_header();
    write_tsan_settings();
    // the forking thread: a fresh stream, its unflushed records were the parent's
    restart_after_fork(self);
    g_state.store(RtState::Ready, std::memory_order_release);
}

namespace {
std::atomic<bool> g_start_allowed{false};
} // namespace

bool runtime_start_allowed() {
    return g_start_allowed.load(std::memory_order_acquire);
}
void allow_runtime_start() {
    g_start_allowed.store(true, std::memory_order_release);
}

void ensure_init() {
    allow_runtime_start();
    RtState expected = RtState::Uninit;
    if (!g_state.compare_exchange_strong(expected, RtState::Initializing)) return;
    // Every interceptor's real function, before anything here can reach one (a disabled runtime
    // still forwards every call).
    resolve_real_functions();
    const char* disable = runtime_getenv("FIRSTRACE_DISABLE");
    if (disable && disable[0] && disable[0] != '0') {
        g_state.store(RtState::Disabled);
        return;
    }
    if (const char* depth = runtime_getenv("FIRSTRACE_STACK_DEPTH")) {
        u64 v = 0;
        for (const char* c = depth; *c >= '0' && *c <= '9' && v <= kMaxStack; ++c)
            v = v * 10 + static_cast<u64>(*c - '0');
        g_stack_depth = static_cast<u32>(v < kMaxStack ? v : kMaxStack);
    }
    if (!open_trace_directory()) {
        g_state.store(RtState::Disabled);
        return;
    }
    record_buffer_init();
    sync_objects_init();
    thread_registry_init();
    spare_stream_prepare();
    install_exit_handlers();
    pthread_atfork(nullptr, nullptr, after_fork_in_child);
    g_state.store(RtState::Ready, std::memory_order_release);
}

} // namespace frt

// The runtime initializes itself as soon as it is loaded; instrumented modules also call
// __tsan_init from their constructors.
__attribute__((constructor)) static void frt_constructor() {
    frt::ensure_init();
    // The program's TSan settings and its initialisation hook (TSan's Initialize ends with
    // OnInitialize) here, not in ensure_init: that can be reached from an interceptor while
    // the calling thread is being attached, and what these do (dlsym's allocations, the
    // program's code) would attach it a second time.
    if (frt::g_state.load(std::memory_order_acquire) == frt::RtState::Ready) {
        frt::capture_tsan_settings();
        frt::call_tsan_on_initialize();
    }
}
__attribute__((destructor)) static void frt_destructor() {
    // (the loader runs this before the runtime's own atexit handler, rt_exit.cpp)
    frt::call_tsan_on_finalize();
    frt::finalize("exit", 0, false);
}
