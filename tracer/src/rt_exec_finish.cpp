// The trace finished before an exec, resumably. Nothing of the old image runs after an exec that
// succeeds (no atexit, no destructors, the kernel ends every other thread), so the trace must be
// complete before the call: every thread's events written, its process ended, the end line
// `exec`. But an exec may also fail after the kernel's first checks (ENOEXEC for a file of an
// unknown format, E2BIG, ETXTBSY, ENOMEM, a bad ELF file: rt_exec_outcome.cpp foresees only
// the first checks) and return to the program, whose later events (its races) must be traced.
// Before, they were lost: the trace was finished for good, the program ran on untraced.
//
// So the finish can be undone. Every thread first writes all it recorded (its open event
// closed) and notes where its stream stands; only then does it end its process, in one chunk of
// its own. The other threads do this in the exit flush signal's handler and then *park* there,
// waiting for the exec's outcome: a parked thread records nothing, so what the streams hold is
// each thread's whole history up to the exec (a consistent end, as at exit). An exec that
// succeeds kills the parked threads (the kernel's de_thread); one that returns cuts every stream
// back to its noted size (the end chunk, and its sequence number, taken back), cuts the metadata
// file back before the end line, makes the spare streams again, and lets the parked threads go
// on traced: the reader sees one trace, as though the exec had not been tried (its computation
// events split there, which changes no race). A thread inside the runtime when asked (it may be
// in the middle of a record) is asked again until it is outside; one that does not answer within
// a second (it blocks the signal with a system call of its own) is flushed by the exec's thread
// as at exit, and then a failed exec leaves the program untraced, as before.
//
// A thread that starts while an exec is pending waits for its outcome before it registers (it is
// not there to park, and the trace is not open): it goes on traced after a failed exec.
//
// A parked thread holds nothing of the runtime's (it was outside it) but may hold any lock of the
// C library's (malloc's, stdio's, the dynamic loader's): between parking and the exec's outcome
// the exec's thread calls only system calls, so the module lines are written before the others
// are asked (dl_iterate_phdr takes the loader's lock).
#include "rt_exec_finish.hpp"

#include <linux/futex.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_exit.hpp"
#include "rt_metadata.hpp"
#include "rt_record_buffer.hpp"
#include "rt_system.hpp"
#include "rt_thread_registry.hpp"
#include "rt_thread_start_args.hpp"

namespace frt {

namespace {

// The exec in flight, or the outcome of the last one: the word the parked threads wait on. The
// outcome stays until the next exec: a parked thread that wakes late reads it then (or, when
// the next exec is pending already, waits for that one's: its stream still ends in the same end
// chunk, which the next outcome keeps or takes back as well).
enum : u32 { kNoExec = 0, kExecPending = 1, kResumeTraced = 2, kGoOnUntraced = 3 };
std::atomic<u32> g_exec{kNoExec};

// What each registered thread answered (by registry slot), and the thread asked (its os tid: the
// slot may be another thread's by the next look). A parked thread sets it back to kNotAsked
// when it leaves the handler (one still parked from an earlier exec counts as parked).
enum : u32 { kNotAsked = 0, kAsked = 1, kInsideRuntime = 2, kParked = 3 };
struct Answer {
    std::atomic<u32> state;
    std::atomic<int> tid;
};
Answer g_answers[kRegistrySize];

// Where a thread's stream stood before its end chunk: the file size, the next chunk's sequence
// number, the logical process it was running (the end switches to the thread's own).
struct ResumePoint {
    long offset = -1;
    u32 seq = 0;
    u32 pid = 0;
};

// The exec's thread: its resume point, whether every other thread parked, the metadata
// file's size before the finish wrote to it.
ResumePoint g_exec_thread_point;
bool g_resumable = false;
long g_metadata_before_finish = -1;

long futex(std::atomic<u32>* word, int op, u32 value) {
    return system_call(SYS_futex, reinterpret_cast<u32*>(word), op, value, nullptr, nullptr, 0);
}

void pause_briefly() {
    struct timespec pause = {0, 100'000};
    nanosleep(&pause, nullptr);
}

// t's events all written, then its process ended in a chunk of its own (the caller holds t's
// guard; t is its own thread).
ResumePoint end_resumably(ThreadState* t) {
    const u64 c = now();
    close_computation(t, c);
    flush_all_own(t);
    ResumePoint p;
    const int fd = t->fd.load(std::memory_order_relaxed);
    p.offset = fd < 0 ? -1 : system_call(SYS_lseek, fd, 0, SEEK_CUR);
    p.seq = t->seq;
    p.pid = t->pid;
    emit_switch(t, t->thread_pid);
    emit_end(t, c);
    flush_all_own(t);
    return p;
}

// The end chunk taken back: the stream goes on from p.
void resume_at(ThreadState* t, const ResumePoint& p) {
    const int fd = t->fd.load(std::memory_order_relaxed);
    if (fd >= 0 && p.offset >= 0) {
        system_call(SYS_ftruncate, fd, p.offset);
        system_call(SYS_lseek, fd, p.offset, SEEK_SET);
    }
    t->seq = p.seq;
    t->pid = p.pid;
    t->len = 0;
    t->committed.store(0, std::memory_order_relaxed);
    t->rel_obj = nullptr; // a repeated release must follow a release in the stream
}

bool parked(const ThreadState* t) {
    return t->registry_slot < kRegistrySize &&
           g_answers[t->registry_slot].state.load(std::memory_order_acquire) == kParked;
}

// Asks every other registered thread to park (again while it answers that it is inside the
// runtime), until all did (true) or a second passed. A thread started meanwhile by one not yet
// parked is found by the next look.
bool park_other_threads(ThreadState* self) {
    const int pid = static_cast<int>(getpid());
    const u64 deadline = now() + 1'000'000'000ull;
    for (;;) {
        u32 waiting = 0;
        for (u32 i = 0; i < kRegistrySize; ++i) {
            ThreadState* t = registered_thread(i);
            if (t == nullptr || t == self || t->ended) continue;
            Answer& a = g_answers[i];
            const bool same_thread = a.tid.load(std::memory_order_relaxed) == t->os_tid;
            const u32 state = same_thread ? a.state.load(std::memory_order_acquire) : kNotAsked;
            if (state == kParked) continue;
            ++waiting;
            if (state == kAsked) continue;
            a.tid.store(t->os_tid, std::memory_order_relaxed);
            a.state.store(kAsked, std::memory_order_release);
            system_call(SYS_tgkill, pid, t->os_tid, exit_flush_signal());
        }
        if (waiting == 0) return true;
        if (now() > deadline) return false;
        pause_briefly();
    }
}

// The outcome told to the parked threads (and to threads waiting to start).
void release_parked_threads(u32 outcome) {
    g_exec.store(outcome, std::memory_order_release);
    futex(&g_exec, FUTEX_WAKE_PRIVATE, ~0u >> 1);
}

} // namespace

bool park_for_exec(ThreadState* t) {
    if (g_exec.load(std::memory_order_acquire) != kExecPending || t == nullptr ||
        t->registry_slot >= kRegistrySize)
        return false;
    Answer& answer = g_answers[t->registry_slot];
    if (t->guard != 0) { // in the middle of a record, maybe: asked again soon
        answer.state.store(kInsideRuntime, std::memory_order_release);
        return true;
    }
    if (t->ended || t->abandoned.load()) { // nothing more to write
        answer.state.store(kParked, std::memory_order_release);
        return true;
    }
    t->guard = 1;
    const ResumePoint p = end_resumably(t);
    answer.state.store(kParked, std::memory_order_release);
    wait_for_exec_outcome();
    if (g_exec.load(std::memory_order_acquire) == kResumeTraced) {
        resume_at(t, p);
        t->guard = 0;
    } // else the guard stays: untraced from now, as after an exit flush
    answer.state.store(kNotAsked, std::memory_order_release);
    return true;
}

void wait_for_exec_outcome() {
    while (g_exec.load(std::memory_order_acquire) == kExecPending)
        futex(&g_exec, FUTEX_WAIT_PRIVATE, kExecPending);
}

bool finish_trace_for_exec() {
    // One exec at a time: another thread's pending exec first (this thread parks meanwhile).
    u32 last = g_exec.load(std::memory_order_acquire);
    while (last == kExecPending || !g_exec.compare_exchange_weak(last, kExecPending)) {
        if (last == kExecPending) {
            wait_for_exec_outcome();
            last = g_exec.load(std::memory_order_acquire);
        }
    }
    if (!begin_trace_end()) { // not traced, or the trace ends already
        release_parked_threads(last);
        return false;
    }
    // (a failed exec takes back what it writes there: a loop of failing execs, a PATH search,
    // does not grow the metadata)
    g_metadata_before_finish = metadata_size();
    // before any thread parks: one parked inside the dynamic loader holds the loader's lock
    write_modules();
    ThreadState* self = tls_state;
    bool own_end_written = true;
    if (self != nullptr && self->guard == 0) {
        self->guard = 1;
        g_exec_thread_point = end_resumably(self);
    } else if (self != nullptr) {
        // exec from a synchronous signal's handler that interrupted the runtime (a crash
        // handler that restarts the program): the record in progress cannot be completed; what
        // was complete is kept, as at a fatal signal, and the finish is final
        if (!self->appending && !self->in_flush)
            write_chunk(self, self->committed.load(std::memory_order_acquire));
        self->abandoned.store(true);
        own_end_written = false;
    }
    g_resumable = park_other_threads(self) && own_end_written;
    const u32 running = g_resumable ? 0 : flush_running_threads(self, parked);
    list_unstarted_threads(false, write_not_started); // they wait for the outcome
    end_trace("exec", 0, running, false, true);
    return true;
}

void resume_trace_after_failed_exec() {
    if (!g_resumable || g_metadata_before_finish < 0) {
        release_parked_threads(kGoOnUntraced);
        return;
    }
    retract_metadata_to(g_metadata_before_finish);
    ThreadState* self = tls_state;
    if (self != nullptr) resume_at(self, g_exec_thread_point);
    reopen_trace_end();
    release_parked_threads(kResumeTraced);
    if (self != nullptr) self->guard = 0;
}

} // namespace frt
