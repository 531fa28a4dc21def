// The end of the traced process: finalize() at exit, _exit or a fatal signal, the exit flush of
// the threads still running then, and the handlers that get us there. What is written last is
// what makes a trace readable after a crash: every complete record of every thread.
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>

#include "rt_exec_finish.hpp"
#include "rt_exit.hpp"
#include "rt_metadata.hpp"
#include "rt_record_buffer.hpp"
#include "rt_signals.hpp"
#include "rt_spare_stream.hpp"
#include "rt_system.hpp"
#include "rt_thread_registry.hpp"
#include "rt_thread_start_args.hpp"
#include "rt_tsan_settings.hpp"

namespace frt {

namespace {

std::atomic<bool> g_finalized{false};

// Threads alive at exit (a worker blocked in the OpenMP pool, a detached thread sleeping):
// finalize() signals each of them; the handler completes the thread's own open computation
// event (and, at a normal exit, ends its process: the thread's execution ends with the
// program's, so the trace is not truncated by it) unless the thread is inside the runtime,
// whose committed records the flush below keeps anyway. The exiting thread waits, bounded, for
// the acknowledgements. The signal is kept deliverable to every traced thread
// (rt_exit_flush_reach.cpp); a thread that blocks it anyway only loses its open event.
std::atomic<u32> g_exit_acks{0};
std::atomic<bool> g_exit_end_records{false};

// Whether the system call this signal interrupted fails with EINTR when the handler returns:
// one the kernel does not restart under SA_RESTART (pause, sleep, poll, select, epoll_wait,
// sigsuspend, ...; x86-64: the handler sees -EINTR in rax, just after a `syscall` instruction).
bool interrupted_call_fails(const void* context) {
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(context);
    if (uc == nullptr || uc->uc_mcontext.gregs[REG_RAX] != -EINTR) return false;
    // rax may hold -EINTR by chance anywhere: read the instruction before only within the
    // page of ip (mapped: the thread was executing there), never the page before it
    const auto rip = static_cast<u64>(uc->uc_mcontext.gregs[REG_RIP]);
    if (rip % 4096 < 2) return false;
    const auto* ip = reinterpret_cast<const unsigned char*>(rip);
    return ip[-2] == 0x0f && ip[-1] == 0x05;
#else
    (void)context;
    return false;
#endif
}

// A thread the exit flush woke from such a call would run on where the exit had stopped it: a
// main blocked in pause() or sleep() while a worker calls exit() would return from main with
// its own status, or print, as it never does untraced. It waits here instead, every signal
// blocked (the handler's mask), for the exit to end the process: bounded, should the exit wait
// for it after all (a library's destructor joining it), when it goes on as before. Only a thread
// outside the runtime: one inside may hold what the exit still needs.
void wait_for_the_process_end() {
    const u64 until = now() + 2'000'000'000ull;
    while (now() < until) {
        struct timespec pause = {0, 10'000'000};
        system_call(SYS_nanosleep, &pause, nullptr);
    }
}

void on_exit_flush_signal(int, siginfo_t*, void* context) {
    const int saved_errno = errno;
    ThreadState* t = tls_state;
    // Sent by an exec's finish: the thread parks until the exec's outcome (rt_exec_finish.cpp).
    if (park_for_exec(t)) {
        errno = saved_errno;
        return;
    }
    // (only while the trace ends: an instance sent by an exec's finish to a thread that was
    // inside the runtime may arrive after the failed exec, when the trace goes on)
    bool wait = false;
    if (t != nullptr && t->guard == 0 && !t->ended && !t->abandoned.load() && finalized()) {
        t->guard = 1; // stays set: after the exit flush the thread is no longer traced
        const u64 c = now();
        close_computation(t, c);
        if (g_exit_end_records.load(std::memory_order_acquire)) {
            emit_switch(t, t->thread_pid);
            emit_end(t, c);
        }
        wait = interrupted_call_fails(context);
    }
    g_exit_acks.fetch_add(1, std::memory_order_release);
    if (wait) wait_for_the_process_end();
    errno = saved_errno;
}

void install_exit_flush_handler() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_exit_flush_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    real_sigaction(exit_flush_signal(), &sa, nullptr);
}

void complete_other_threads(ThreadState* self, bool end_records) {
    g_exit_end_records.store(end_records, std::memory_order_release);
    const int pid = static_cast<int>(getpid());
    u32 sent = 0;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* t = registered_thread(i);
        if (t == nullptr || t == self || t->ended) continue;
        if (system_call(SYS_tgkill, pid, t->os_tid, exit_flush_signal()) == 0) ++sent;
    }
    const u64 deadline = now() + 1'000'000'000ull;
    while (g_exit_acks.load(std::memory_order_acquire) < sent && now() < deadline) {
        struct timespec pause = {0, 200'000};
        nanosleep(&pause, nullptr);
    }
}

void on_fatal_signal(int sig, siginfo_t*, void*) {
    finalize("signal", sig, true);
    struct sigaction default_action;
    std::memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    real_sigaction(sig, &default_action, nullptr);
    raise(sig);
}

void atexit_handler() {
    call_tsan_on_finalize(); // as TSan's exit handler: after the program's own, still traced
    finalize("exit", 0, false);
}

// quick_exit (C11 7.22.4.7) runs the at_quick_exit functions and then ends the process
// through the C library's internal _Exit, which the interposed one never sees (the trace was
// left unfinished: no end line, the handlers' events lost). Registered at start-up, before any
// of the program's, this function runs last; like exit, quick_exit ends every thread, so the
// others complete their open events as at exit.
void quick_exit_handler() {
    finalize("exit", 0, false);
}

} // namespace

int exit_flush_signal() {
    return SIGRTMAX - 3;
}

void install_exit_handlers() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK; // flush after a stack overflow too
    sigemptyset(&sa.sa_mask);
    const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
                         SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (int sig : fatal) {
        struct sigaction old;
        if (real_sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            real_sigaction(sig, &sa, nullptr);
    }
    install_exit_flush_handler();
    atexit(atexit_handler);
    at_quick_exit(quick_exit_handler);
}

bool finalized() {
    return g_finalized.load();
}

bool begin_trace_end() {
    if (g_state.load(std::memory_order_acquire) != RtState::Ready) return false;
    // A process that is a copy of the traced one but not followed (clone() without CLONE_VM):
    // its end is not the trace's, and the stream files it inherited are the parent's.
    if (!owns_trace()) {
        g_state.store(RtState::Disabled, std::memory_order_release);
        return false;
    }
    return !g_finalized.exchange(true);
}

u32 flush_running_threads(ThreadState* self, bool (*completed)(const ThreadState*)) {
    u32 running = 0;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* t = registered_thread(i);
        if (t == nullptr || t == self || (completed != nullptr && completed(t))) continue;
        ++running;
        // bounded wait for the owner to finish its current record
        bool locked = false;
        for (int k = 0; k < 100000 && !locked; ++k) {
            u32 e = 0;
            locked = t->io_lock.compare_exchange_weak(e, 1, std::memory_order_acquire);
            if (!locked) __builtin_ia32_pause();
        }
        if (!locked) continue;
        if (still_registered(i, t) && !t->abandoned.load()) {
            write_chunk(t, t->committed.load(std::memory_order_acquire));
            t->abandoned.store(true);
        }
        t->io_lock.store(0, std::memory_order_release);
    }
    return running;
}

void end_trace(const char* how, long value, u32 running, bool write_module_lines, bool announce) {
    if (write_module_lines) write_modules();
    write_end_line(how, value, running);
    spare_stream_remove();
    if (announce) announce_trace();
    g_state.store(RtState::Finished, std::memory_order_release);
}

void reopen_trace_end() {
    spare_stream_prepare();
    g_finalized.store(false);
    g_state.store(RtState::Ready, std::memory_order_release);
}

// Writes what is complete and the end line. Called once: at exit, from _exit, or from a fatal
// signal handler. Other threads still running are flushed up to their last complete record
// and then write nothing more. (Before an exec: rt_exec_finish.cpp.)
void finalize(const char* how, long value, bool in_signal) {
    if (!begin_trace_end()) return;
    ThreadState* self = tls_state;
    if (self != nullptr) {
        if (!in_signal || (self->guard == 0)) {
            self->guard = 1;
            const u64 c = now();
            emit_switch(self, self->thread_pid);
            emit_end(self, c);
            flush_all_own(self);
        } else if (!self->in_flush) {
            // interrupted inside the runtime: keep what was complete
            write_chunk(self, self->committed.load(std::memory_order_acquire));
        }
        self->abandoned.store(true);
    }
    list_unstarted_threads(true, write_not_started);
    complete_other_threads(self, std::strcmp(how, "exit") == 0);
    const u32 running = flush_running_threads(self, nullptr);
    end_trace(how, value, running, !in_signal, !in_signal);
}

} // namespace frt
