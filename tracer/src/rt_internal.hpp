// Internals of the firstrace runtime (libfirstrace_rt.so): per-thread state, the access fast
// path, the interceptor guard (InterceptorScope), and what the runtime's files offer each other
// (the site table, records, sync objects, thread registry, start and exit; one file per concept,
// see tracer/README.md "Runtime layout").
//
// Discipline (as in the LLVM sanitizer runtimes): per-thread state is reached through one
// initial-exec TLS pointer; the access hot path takes no lock, calls no malloc and makes no
// system call; every runtime entry sets a reentrancy guard; a program's signal handler that
// arrives while the guard is held runs when the thread leaves the runtime (leave(), as
// ThreadSanitizer defers it), not in the middle of the runtime's table updates. All memory
// comes from mmap. Nothing here throws or aborts: on any internal failure tracing stops and the
// program runs on.
#pragma once

#include <signal.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <firstrace/trace_format.hpp>

#include "rt_site_table.hpp"

#define FRT_EXPORT extern "C" __attribute__((visibility("default")))
#define FRT_LIKELY(x) __builtin_expect(!!(x), 1)
#define FRT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define FRT_INLINE inline __attribute__((always_inline))

namespace frt {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

inline constexpr u32 kNoPid = 0xffffffffu;

// Sizes of the per-thread areas.
inline constexpr u32 kTableBits = 13; // site hash table: 8192 slots
inline constexpr u32 kTableSize = 1u << kTableBits;
inline constexpr u32 kMaxSites = kTableSize / 4;       // split the event beyond this
inline constexpr std::size_t kArenaSize = 8u << 20;    // range arrays of the open event
inline constexpr std::size_t kBufferSize = 512u << 10; // raw record buffer (one chunk)
inline constexpr u32 kMaxStack = 256;                  // shadow stack depth kept
inline constexpr u32 kMaxContext = 64;                 // innermost frames written per event
inline constexpr u32 kDepotBits = 13;                  // stack depot: 8192 stacks per thread
inline constexpr u32 kDepotSize = 1u << kDepotBits;
// Frames of an access site's stack written to the trace (FIRSTRACE_STACK_DEPTH, default 64,
// at most kMaxStack); set once at start-up.
extern u32 g_stack_depth;

// An access site of the open computation event -- program counter, calling context, kind, and
// the bytes it touched (rt_site_table.hpp) -- and the slot of the thread's site table (open
// addressing) that holds it: the access path reaches the open run in one load from the table.
struct Site {
    u64 key;   // site_key(pc, flags, stack)
    u32 gen;   // the slot is used when equal to ThreadState::gen
    u32 stack; // stack depot id of the calling context (0: none)
    SiteAccesses bytes;
    u64 pc;
    u8 flags;
};

// One entry of a thread's stack depot: stacks are interned by their incremental hash, and ids
// are local to the thread's stream (the reader maps (stream, id) to a calling context).
struct DepotSlot {
    u64 hash;
    u32 id;
    u32 gen; // valid when equal to ThreadState::depot_gen (a recycled state starts empty)
};

struct ThreadState {
    // --- hot fields ---
    u32 guard; // nonzero while inside the runtime
    u32 gen;   // generation of the site table (bumped per event)
    // Signals (bit sig - 1) whose handler is deferred: they arrived while the guard was held,
    // and run when the thread leaves the runtime (rt_deferred_signals.cpp).
    std::atomic<u64> deferred_signals;
    u64 last_key; // one-entry cache of the site table
    Site* last_site;
    u32 nsites;
    u32 depth;      // shadow stack depth (may exceed kMaxStack)
    u64 stack_hash; // hash of stack[0, min(depth, kMaxStack)): part of every site key
    u32 budget;     // accesses until the next look at the clock (periodic event split)
    // Nonzero while an interceptor of a library's synchronization API runs the real call and
    // models it on the library's own object (rt_glib.cpp: GRecMutex and GRWLock, which libglib
    // implements with pthread objects of its own): the pthread interceptors that call reaches
    // pass through (sync_modelled_above). Lifted in signal handlers (rt_signals.cpp). Here, in
    // the padding after `budget`: the pthread lock interceptors test it on every call.
    u32 sync_modelled_above;
    Site* table; // kTableSize slots
    u32* order;  // the slots used in the open event, in order of first access
    char* arena;
    std::size_t arena_used;
    u64 stack[kMaxStack];
    u64 stack_hashes[kMaxStack + 1]; // stack_hashes[d]: hash of stack[0, d)
    DepotSlot* depot;
    u32 depot_gen;
    u32 depot_ids; // ids handed out in this stream

    // --- event state ---
    u64 event_start;  // clock at the start of the open computation event
    bool event_alone; // alone() when the open computation event started
    u32 ctx_depth;    // context snapshot taken at the first access of the event
    u64 ctx[kMaxContext];

    // --- identity ---
    u32 pid;        // the current logical process (an OpenMP task or chunk runs on the thread)
    u32 thread_pid; // the OS thread's own process
    u32 parent;
    int os_tid;
    u32 registry_slot;
    bool ended;
    // the thread's stack block ([stack_lo, stack_hi): stack, static TLS, descriptor), known
    // from its start; 0 when unknown (rt_reuse_ordering.hpp: dead stacks)
    u64 stack_lo, stack_hi;

    // --- output ---
    std::atomic<u32> io_lock;    // held by whoever appends to or flushes buffer
    std::atomic<bool> abandoned; // another thread flushed this one at exit: write no more
    bool appending;              // the owner holds io_lock (signal handler check)
    bool in_flush;
    unsigned char* buf;
    std::size_t len;
    std::atomic<std::size_t> committed; // end of the last complete record in buf
    unsigned char* zbuf;
    std::size_t zcap;
    void* cctx;
    u32 seq;
    std::atomic<int> fd; // the stream file: a runtime descriptor (rt_own_descriptors.hpp)

    // acquire-elision cache: last atomic object acquired and its release stamp then
    const void* acq_obj;
    u64 acq_stamp;
    // release coalescing (rt_access.cpp): the last Release written for an atomic store or RMW,
    // its access site and size, and where the stream stood right after it
    const void* rel_obj;
    u64 rel_incarnation;
    u64 rel_counter;
    u64 rel_site;
    u64 rel_size;
    std::size_t rel_len;
    u32 rel_seq;
    // fences (rt_access.cpp): a release fence makes this thread's later relaxed stores
    // releases; the last atomics read by relaxed operations, acquired by an acquire fence
    bool fence_released;
    u32 relaxed_reads_next;
    u64 relaxed_reads[8];

    // TSan annotation API (rt_annotations.cpp): accesses of these kinds (kRead/kWrite bits)
    // are dropped in add_access_slow; while ignore_sync is nonzero no sync record is written.
    u8 ignore_access_kinds;
    u32 ignore_reads_depth;
    u32 ignore_writes_depth;
    u32 ignore_sync_depth;

    // Robust mutexes the thread holds (rt_robust_mutex.cpp): released at its end.
    const void* robust_held[4];
    u32 robust_count;

    void* deferred_area; // rt_deferred_signals.cpp: mapped at the first deferral, kept

    ThreadState* next_free;
};

// Robust mutexes (rt_robust_mutex.cpp): a lock that succeeded (or returned EOWNERDEAD) and a
// successful unlock of m by t, and t's end, which releases the robust mutexes it still holds.
void robust_mutex_locked(ThreadState* t, const void* m);
void robust_mutex_unlocked(ThreadState* t, const void* m);
void robust_mutexes_released_at_end(ThreadState* t);

// The TLS pointer (initial-exec: one instruction on the hot path).
extern __thread ThreadState* tls_state __attribute__((tls_model("initial-exec")));

// Global state.
enum class RtState : u32 { Uninit = 0, Initializing = 1, Ready = 2, Disabled = 3, Finished = 4 };
extern std::atomic<RtState> g_state;

// Returns the calling thread's state, creating it on first use; null when not tracing.
ThreadState* attach_thread();
// A thread attached while it runs (not started through pthread_create's wrapper: a thread of the
// C library's own, such as a SIGEV_THREAD notification) starts on its stack as the others do
// (ordered after the thread that ended there) and ends its trace at its exit, as the others do
// (rt_interceptors.cpp: the exit key's destructor).
void attached_thread_started();

FRT_INLINE ThreadState* current() {
    ThreadState* t = tls_state;
    if (FRT_UNLIKELY(t == nullptr)) t = attach_thread();
    return t;
}

// Enter the runtime from an interceptor: null when the call must pass through untraced.
FRT_INLINE ThreadState* enter() {
    ThreadState* t = current();
    if (t == nullptr || t->guard != 0) return nullptr;
    t->guard = 1;
    return t;
}
// The calling thread's pthread lock call is made by a library whose own API call the runtime
// models (ThreadState::sync_modelled_above): the pthread interceptor passes it through.
FRT_INLINE bool sync_modelled_above() {
    const ThreadState* t = tls_state;
    return t != nullptr && t->sync_modelled_above != 0;
}
// Runs the handlers of the signals deferred while t was inside the runtime (guard released).
void run_deferred_signals(ThreadState* t);
FRT_INLINE void leave(ThreadState* t) {
    t->guard = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (FRT_UNLIKELY(t->deferred_signals.load(std::memory_order_relaxed) != 0))
        run_deferred_signals(t);
}
// enter() for a thread that already has a state, without creating one (calls made while a
// thread is being set up, signal handlers, memcpy & co.): null when it must pass through.
FRT_INLINE ThreadState* enter_attached() {
    ThreadState* t = tls_state;
    if (t == nullptr || t->guard != 0) return nullptr;
    t->guard = 1;
    return t;
}

// The guard pattern of an interceptor, as one RAII object (the LLVM sanitizer runtimes'
// ScopedInterceptor, heaptrack's RecursionGuard): constructed, it enters the runtime (holds the
// calling thread's guard) unless the call must pass through untraced, which `if (!scope)`
// tests; destroyed, it leaves. The real function runs outside the runtime, through outside():
// the guard is released around it so that what it does on the program's behalf (callbacks,
// signal handlers running instrumented code) is traced, and taken again when it returns.
//
//     FRT_EXPORT int sem_post(sem_t* s) {
//         InterceptorScope scope;
//         if (!scope) return REAL(sem_post)(s);
//         ... record before ...
//         const int r = scope.outside([&] { return REAL(sem_post)(s); });
//         ... record after ...
//         return r;
//     }
class InterceptorScope {
  public:
    // Enters for the calling thread (created on its first call).
    FRT_INLINE InterceptorScope() : t_(enter()) {}
    // Adopts a thread state whose guard the caller took (null: pass through).
    FRT_INLINE explicit InterceptorScope(ThreadState* entered) : t_(entered) {}
    FRT_INLINE ~InterceptorScope() {
        if (t_ != nullptr && inside_) leave(t_);
    }
    InterceptorScope(const InterceptorScope&) = delete;
    InterceptorScope& operator=(const InterceptorScope&) = delete;

    FRT_INLINE explicit operator bool() const { return t_ != nullptr; }
    FRT_INLINE ThreadState* thread() const { return t_; }

    // Runs f outside the runtime and returns its result; the scope holds the guard again after.
    template <class F> FRT_INLINE decltype(auto) outside(F&& f) {
        leave(t_);
        inside_ = false;
        if constexpr (std::is_void_v<decltype(f())>) {
            f();
            reenter();
        } else {
            decltype(auto) r = f();
            reenter();
            return r;
        }
    }
    // Leaves early: for code after it that may block or not return (finalize, a thread's end).
    FRT_INLINE void exit() {
        leave(t_);
        inside_ = false;
    }
    FRT_INLINE void reenter() {
        t_->guard = 1;
        inside_ = true;
    }

  private:
    ThreadState* t_;
    bool inside_ = true;
};

u64 now();

// Access recording (the slow path of the hot path is the site table, rt_site_table.cpp).
void add_access_slow(ThreadState* t, u64 pc, u64 addr, u64 size, u8 flags);
// on_access beyond its fast path (rt_site_table.cpp).
__attribute__((noinline)) void on_access_slow(u64 pc, u64 addr, u64 size, u8 flags);
// Every kBudget accesses: split a computation event older than kSplitAfterNs, so that a thread
// that never synchronizes still leaves complete records behind (for a crash flush).
inline constexpr u32 kBudget = 1u << 20;
inline constexpr u64 kSplitAfterNs = 100'000'000;
void periodic(ThreadState* t);

// The key of an access site in the open event: program counter, kind and calling context. The
// stack enters through its incremental hash (maintained by __tsan_func_entry/exit), so the same
// pc reached through two call paths makes two sites, at the cost of one xor on the access path.
FRT_INLINE u64 site_key(const ThreadState* t, u64 pc, u8 flags) {
    return ((pc << 3) | flags) ^ t->stack_hash;
}

// One step of the incremental stack hash: the hash of a stack one frame deeper.
FRT_INLINE u64 stack_hash_push(u64 h, u64 caller_pc) {
    return (h ^ caller_pc) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

FRT_INLINE u32 slot_index(u64 key) {
    return static_cast<u32>((key * 0x9E3779B97F4A7C15ull) >> (64 - kTableBits));
}

// The access path (every __tsan_readN/writeN): the site is in its home slot of the table (the
// common case: a handful of sites per loop) and the access is the next one of its open run (a
// contiguous, strided or repeated sweep, rt_site_table.hpp): a few loads and compares, no
// callee-saved register, no call. Everything else -- first use of the thread, the guard held,
// the periodic look at the clock, a new site or run -- is on_access_slow, as a tail call.
FRT_INLINE void on_access(u64 pc, u64 addr, u64 size, u8 flags) {
    ThreadState* t = tls_state;
    if (FRT_LIKELY(t != nullptr && t->guard == 0 && --t->budget != 0)) {
        // The guard is held across the lookup and the update (a signal arriving in between is
        // deferred: its handler sets budget to 1, so that the next access takes the slow path,
        // which runs it as it leaves), the fences keep the compiler from dropping or moving
        // these stores.
        t->guard = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        const u64 key = site_key(t, pc, flags);
        Site& site = t->table[slot_index(key)];
        const bool done = site.gen == t->gen && site.key == key &&
                          (site.bytes.extend_run(addr, size) || site.bytes.run_covers(addr, size));
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->guard = 0;
        if (FRT_LIKELY(done)) return;
    }
    on_access_slow(pc, addr, size, flags);
}

// Events. All of these expect the guard to be held.
void close_computation(ThreadState* t, u64 clock); // writes the open event (if any)
void reset_event(ThreadState* t, u64 clock);       // a new computation event starts at clock
struct SyncRecord {
    u8 op;
    u8 cls;
    u64 object;
    u64 incarnation;
    u64 counter;
    u64 clock_start;
    u64 clock_finish;
    u64 pc;
    i64 extra;
};
void emit_sync(ThreadState* t, const SyncRecord& r);       // event_start = clock_finish after
void thread_finish(ThreadState* t);                        // End record, flush, release state
void emit_name(ThreadState* t, u32 pid, const char* name); // kRecName
// kRecAlloc: the current process got [address, address + size) from the allocator at pc.
void emit_alloc(ThreadState* t, u64 address, u64 size, u64 pc);
// kRecMisuse: the current process misused synchronization object `object` of class `cls` at pc
// (format::MisuseKind `kind`; rt_sync_misuse.hpp).
void emit_misuse(ThreadState* t, u8 kind, u8 cls, u64 object, u64 pc);
// kRecBenign: races on [address, address + size) are declared benign.
void emit_benign(ThreadState* t, u64 address, u64 size);
// Logical processes (rt_openmp.cpp): declare a new process and make it current, or make an
// existing one current. Both close the open computation event first (its accesses belong to
// the process that was current). kind: format::ProcessKind.
void emit_process(ThreadState* t, u32 pid, u32 parent, u8 kind);
void emit_switch(ThreadState* t, u32 pid);
void emit_end(ThreadState* t, u64 clock); // kRecEnd for the current process
// A record of varints only (the OpenMP records 10-12).
void emit_varints(ThreadState* t, u8 type, const u64* values, u32 count);

// Global object table (lock-free, keyed by class + address).
struct ObjEntry {
    std::atomic<u64> key;
    std::atomic<u64> counter;      // the object's order of operations
    std::atomic<u64> counter2;     // semaphores: completed waits; barriers: departures of the
                                   // round a destroy waits for (rt_sync_misuse.hpp)
    std::atomic<u64> last_release; // atomics: changes whenever a release sequence does;
                                   // barriers: the round a destroy waits for (0: none)
    std::atomic<u32> spin;
    std::atomic<u32> incarnation; // bumped by sem_init: a fresh object at the same address;
                                  // atomics: the number of the current release sequence
    std::atomic<i64> extra;       // semaphore initial value, barrier count
    // atomics (rt_atomic_model.hpp), under spin: the processes whose releases head the current
    // release sequence and the next counter of each one's object
    struct ReleaseHead {
        u32 pid_plus_one; // 0: unused
        u32 next_counter;
    } heads[4];
};
ObjEntry* object(u8 cls, const void* addr); // find or insert
// A condition variable's wait and signal as recorded (rt_interceptors.cpp; GLib's GCond in
// rt_glib.cpp): the wait's start (Release of the mutex), its end (CondWait, Acquire of the
// mutex), a signal or broadcast before the real call.
void cond_wait_began(ThreadState* t, const void* c, const void* m, u64 pc);
void cond_wait_ended(ThreadState* t, const void* c, const void* m, u64 pc);
void cond_signal_recorded(ThreadState* t, const void* c, u64 pc);
ObjEntry* find_object(u8 cls, const void* addr); // null when absent
void sync_objects_init();                        // at initialisation (before: one per class)
void sync_objects_after_fork();                  // in the child: frees the spin locks

FRT_INLINE void spin_lock(std::atomic<u32>& s) {
    while (s.exchange(1, std::memory_order_acquire) != 0) {
        while (s.load(std::memory_order_relaxed) != 0)
            __builtin_ia32_pause();
    }
}
FRT_INLINE void spin_unlock(std::atomic<u32>& s) {
    s.store(0, std::memory_order_release);
}

// Processes: one per OS thread, and the logical processes of OpenMP tasks and fibers
// (rt_openmp.cpp, rt_annotations.cpp). The thread registry (rt_thread_registry.cpp) hands them out.
u32 new_pid();
u32 new_pids(u32 count);                  // `count` consecutive ids
void thread_started(u32 pid, u32 parent); // called first thing in a created thread
void map_thread(u64 pthread_id, u32 pid);
u32 lookup_thread(u64 pthread_id); // kNoPid when unknown
// Whether the caller is the program's only process and every other one ever created was joined
// (so all it did is ordered before the caller's next event): a computation event that starts
// and ends so cannot take part in an apparent race, and its accesses are not written
// (rt_site_table.cpp; DESIGN-NOTES "Events of a process that is alone").
bool alone();
void process_joined();          // a successful join of a process new_pid() handed out
void unordered_helper_thread(); // a thread the runtime will not see created may run from now on

// The code of the OpenMP runtime (set by rt_openmp.cpp when it registers as a tool): its own
// mem* calls work on its own data, which it synchronizes itself (and the copies it makes for
// tasks are ordered by the task creation): not the program's accesses.
extern std::atomic<u64> g_openmp_runtime_lo, g_openmp_runtime_hi;
FRT_INLINE bool in_openmp_runtime(u64 pc) {
    return pc >= g_openmp_runtime_lo.load(std::memory_order_relaxed) &&
           pc < g_openmp_runtime_hi.load(std::memory_order_relaxed);
}

// Termination.
void finalize(const char* how, long value, bool in_signal);
// The signal finalize() sends to every other live thread so that it completes its own open
// computation event (installed at initialization, SA_RESTART).
int exit_flush_signal();
// rt_exit_flush_reach.cpp: the calling thread unblocks the exit flush signal (async-signal-safe);
// a signal set without it (`set` itself when it lacks it, else `copy`).
void unblock_exit_flush_signal();
const sigset_t* without_exit_flush_signal(const sigset_t* set, sigset_t& copy);
// At initialisation: the fatal-signal flush, the exit flush signal's handler, atexit.
void install_exit_handlers();
bool finalized(); // finalize() ran (or is running)

void ensure_init();
// Whether an instrumented access or a thread's first interceptor may start the runtime: only once
// the runtime's constructor (or an instrumented module's __tsan_init) ran. Before that the
// process may still be relocating: an instrumented ifunc resolver (target_clones) runs inside the
// dynamic linker, before the C library is initialised, and must pass through untraced.
bool runtime_start_allowed();
void allow_runtime_start();
// In the child of fork (glibc's atfork child handler, or the fork system call hook): the child
// continues in a trace of its own (rt_process.cpp).
void after_fork_in_child();
// __tsan_init was called: the program has instrumented code (metadata `instrumented 1`).
void mark_instrumented();

} // namespace frt
