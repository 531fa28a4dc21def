// Interposed pthread, semaphore, allocator and process-exit functions. Each synchronization
// operation ends the open computation event and records the object, the operation, the
// object's counter (its position in that object's order of operations) and the clock at the
// event boundaries. The real functions are resolved at initialisation (rt_real.hpp; the condition
// variable functions by version, whose unversioned lookup would find glibc's pre-2.3.2 compat
// versions); every interceptor holds the runtime's guard through an InterceptorScope.
//
// Counters follow the real order of operations on an object:
//   mutex, spinlock  lock: Acquire, counter taken after the lock is held;
//                    unlock: Release, counter taken before the lock is released, recorded
//                    only when the unlock succeeded (a counter value may go unused).
//   rwlock           two objects: the lock (kObjRwLock) and its read unlocks
//                    (kObjRwLockReaders). rdlock: Acquire(lock) after; wrlock: Acquire(lock)
//                    and Acquire(readers) after; write unlock: Release(lock) before; read
//                    unlock: Acquire(readers) + Release(readers), two counters taken at once,
//                    before. Readers are thus ordered after the last writer but not after each
//                    other, and the read unlocks form a chain that the next writer reaches.
//   cond wait        Release(mutex), wait, CondWait(cond), Acquire(mutex).
//   semaphore        post: SemPost with the post counter, taken with the post under the
//                    object's spin lock; wait: SemWait with the wait counter, after it returns.
//                    sem_init starts a new incarnation of the object (fresh counters) and
//                    records the initial value, carried by every semaphore event.
//   barrier          wait: BarrierArrive(episode) before, BarrierDepart(episode) after, episode
//                    = arrival number / count. An init or destroy while a round is in
//                    progress is a misuse (rt_sync_misuse.hpp), not a write of the barrier.
//   fork / join      Fork(child pid) in the parent after pthread_create succeeded; the child's
//                    first record declares it with its parent; Join(child pid) after join.
//   heap blocks      see rt_allocator.cpp.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fcntl.h>

#include <cstdint>
#include <cstring>

#include "rt_exec_finish.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_reuse_ordering.hpp"
#include "rt_sync_misuse.hpp"
#include "rt_thread_registry.hpp"
#include "rt_thread_start_args.hpp"

using namespace frt;
namespace fmt = firstrace::format;

// rt_unwind_watch.c: runs body(arg), calling on_unwind(arg) if an exception or a thread's
// cancellation unwinds out of it.
extern "C" {
struct frt_unwind_watch {
    void (*body)(void* arg);
    void (*on_unwind)(void* arg);
    void* arg;
    bool returned;
};
void frt_run_watching_unwind(frt_unwind_watch* watch);
}

namespace {

// Lock-like objects: acquire after the real operation succeeded. The operation's read of the
// object's memory is recorded before the acquire (in the computation event that precedes it):
// the lock reads the object to take it, before it is ordered after the last unlock, so an init
// or destroy of the object in another thread that only that unlock orders is a race with it
// (ThreadSanitizer's MutexPostLock: the atomic read precedes the acquire of the clock).
template <class Real, class... Args>
int acquire_op(u8 cls, const void* obj, u64 pc, Real real, Args... args) {
    if (sync_modelled_above()) return real(args...);
    InterceptorScope scope;
    if (!scope) return real(args...);
    ThreadState* t = scope.thread();
    sync_object_used(t, pc, obj);
    const u64 c0 = sync_op_begins(t);
    const int r = scope.outside([&] { return real(args...); });
    if (r == 0 || r == EOWNERDEAD) { // EOWNERDEAD: a robust mutex, held now (rt_robust_mutex)
        acquired(t, cls, obj, c0, pc);
        if (cls == fmt::kObjMutex) robust_mutex_locked(t, obj);
    }
    return r;
}

// Unlock-like operations: the counter is taken before the real release (while the object is
// still held); the events are written only if the release succeeded (an error-checking mutex
// unlocked by a thread that does not hold it is no synchronization).
template <class Real, class... Args>
int release_op(u8 cls, const void* obj, u64 pc, bool chain, Real real, Args... args) {
    if (sync_modelled_above()) return real(args...);
    InterceptorScope scope;
    if (!scope) return real(args...);
    ThreadState* t = scope.thread();
    sync_object_used(t, pc, obj);
    const u64 c0 = sync_op_begins(t);
    const ReleaseTicket ticket = release_ticket(cls, obj, chain);
    const int r = scope.outside([&] { return real(args...); });
    if (r == 0) released(t, cls, obj, ticket, chain, c0, pc);
    return r;
}

FRT_DECLARE_REAL(pthread_create);
FRT_DECLARE_REAL(pthread_join);
FRT_DECLARE_REAL(pthread_tryjoin_np);
FRT_DECLARE_REAL(pthread_timedjoin_np);
FRT_DECLARE_REAL(pthread_clockjoin_np);
FRT_DECLARE_REAL(pthread_exit);
FRT_DECLARE_REAL(pthread_mutex_lock);
FRT_DECLARE_REAL(pthread_mutex_trylock);
FRT_DECLARE_REAL(pthread_mutex_timedlock);
FRT_DECLARE_REAL(pthread_mutex_unlock);
FRT_DECLARE_REAL(pthread_rwlock_rdlock);
FRT_DECLARE_REAL(pthread_rwlock_tryrdlock);
FRT_DECLARE_REAL(pthread_rwlock_timedrdlock);
FRT_DECLARE_REAL(pthread_rwlock_wrlock);
FRT_DECLARE_REAL(pthread_rwlock_trywrlock);
FRT_DECLARE_REAL(pthread_rwlock_timedwrlock);
FRT_DECLARE_REAL(pthread_rwlock_unlock);
FRT_DECLARE_REAL(pthread_spin_lock);
FRT_DECLARE_REAL(pthread_spin_trylock);
FRT_DECLARE_REAL(pthread_spin_unlock);
FRT_DECLARE_REAL(pthread_mutex_clocklock);
FRT_DECLARE_REAL(pthread_rwlock_clockrdlock);
FRT_DECLARE_REAL(pthread_rwlock_clockwrlock);
FRT_DECLARE_REAL(pthread_cond_clockwait);
FRT_DECLARE_REAL(sem_clockwait);
FRT_DECLARE_REAL_VERSIONED(pthread_cond_wait, "GLIBC_2.3.2");
FRT_DECLARE_REAL_VERSIONED(pthread_cond_timedwait, "GLIBC_2.3.2");
FRT_DECLARE_REAL_VERSIONED(pthread_cond_signal, "GLIBC_2.3.2");
FRT_DECLARE_REAL_VERSIONED(pthread_cond_broadcast, "GLIBC_2.3.2");
FRT_DECLARE_REAL(pthread_barrier_init);
FRT_DECLARE_REAL(pthread_barrier_wait);
FRT_DECLARE_REAL(sem_init);
FRT_DECLARE_REAL(sem_getvalue);
using sem_open_fn = sem_t* (*)(const char*, int, ...);
FRT_DECLARE_REAL_TYPED(sem_open, sem_open_fn);
FRT_DECLARE_REAL(sem_post);
FRT_DECLARE_REAL(sem_wait);
FRT_DECLARE_REAL(sem_trywait);
FRT_DECLARE_REAL(sem_timedwait);
FRT_DECLARE_REAL(pthread_setname_np);
FRT_DECLARE_REAL(_exit);
FRT_DECLARE_REAL(_Exit);

// A thread's stack and static TLS block: glibc caches the stacks of threads that ended and
// hands them to later threads, with the thread descriptor (what pthread_self() points to) at
// the same place in the block. The end of a thread is a Release on kObjThreadStorage at its
// pthread_t, the start of a thread an Acquire on it when an earlier thread ended there, so
// that the frames and TLS variables of both do not look shared. Before the Acquire, the block
// (rt_reuse_ordering.hpp): the analyzer makes the start a new lifetime of its bytes instead of
// an ordering of the two threads.
// A block glibc mapped afresh is a new mapping: it may lie where glibc unmapped a dead
// thread's stack (a lifetime start, rt_reuse_ordering.hpp) or where the program freed or
// unmapped memory (the reuse of those frees, as for an allocation). The thread's end hands its
// block to the dead stacks.
void storage_handed_over(ThreadState* t) {
    const void* self = reinterpret_cast<const void*>(pthread_self());
    u64 lo = 0, hi = 0;
    const bool known = own_stack(lo, hi);
    t->stack_lo = lo;
    t->stack_hi = hi;
    if (find_object(fmt::kObjThreadStorage, self) == nullptr) {
        if (!known) return;
        record_mapping(t, lo, hi, 0);
        record_reuse(t, lo, hi, 0);
        return;
    }
    if (known) record_storage_reuse(t, lo, hi, 0);
    acquire_now(t, fmt::kObjThreadStorage, self, 0);
}

void thread_exit(ThreadState* t) {
    if (t->ended) return;
    t->guard = 1;
    robust_mutexes_released_at_end(t);
    release_now(t, fmt::kObjThreadStorage, reinterpret_cast<const void*>(pthread_self()), 0, false);
    stack_died(t->stack_lo, t->stack_hi);
    thread_finish(t);
}

// A thread's trace ends in the destructor of this thread-specific data key, not when its start
// routine returns: the destructors of C++ thread_local objects (__call_tls_dtors) and of other
// keys run after the start routine and free blocks that later threads reuse, so they must be
// traced. glibc calls key destructors in rounds while values remain set; the destructor sets
// its value again once, so that the thread ends in the second round, after the first-round
// destructors of every other key. Threads that never return from their start routine
// (pthread_cancel, pthread_exit from code the runtime does not see) end here too.
pthread_key_t g_exit_key;
std::atomic<int> g_exit_key_state{0}; // 0 none, 1 creating, 2 ready, 3 failed
constexpr std::uintptr_t kExitRoundOne = 1, kExitRoundTwo = 2;

void exit_key_destructor(void* value) {
    if (reinterpret_cast<std::uintptr_t>(value) == kExitRoundOne &&
        pthread_setspecific(g_exit_key, reinterpret_cast<void*>(kExitRoundTwo)) == 0)
        return;
    if (ThreadState* t = tls_state; t != nullptr && t->guard == 0) thread_exit(t);
}

bool exit_key_ready() {
    int s = g_exit_key_state.load(std::memory_order_acquire);
    if (s == 0 && g_exit_key_state.compare_exchange_strong(s, 1)) {
        s = pthread_key_create(&g_exit_key, exit_key_destructor) == 0 ? 2 : 3;
        g_exit_key_state.store(s, std::memory_order_release);
    }
    while (s == 1)
        s = g_exit_key_state.load(std::memory_order_acquire);
    return s == 2;
}

void* thread_start(void* p) {
    auto* a = static_cast<StartArgs*>(p);
    void* (*fn)(void*) = a->fn;
    void* arg = a->arg;
    // The thread maps its own handle before anything else (see pthread_create): a joiner that
    // looks it up finds this thread from now until the join that frees the handle.
    map_thread(static_cast<u64>(pthread_self()), a->pid);
    wait_for_exec_outcome(); // registered once the trace is open again (rt_exec_finish.cpp)
    const bool claimed = start_args_claimed(a); // else the trace ended: it starts after the end
    if (claimed)
        thread_started(a->pid, a->parent);
    else
        untraced_from_now();
    const sigset_t mask = a->mask;
    free_start_args(a);
    alt_stack_attach();
    pthread_sigmask(SIG_SETMASK, &mask, nullptr); // registered: handlers may run (and trace)
    unblock_exit_flush_signal(); // the attribute's mask may block it (rt_exit_flush_reach.cpp)
    bool ends_in_destructor = false;
    if (InterceptorScope scope(enter_attached()); scope) {
        storage_handed_over(scope.thread());
        ends_in_destructor =
            exit_key_ready() &&
            pthread_setspecific(g_exit_key, reinterpret_cast<void*>(kExitRoundOne)) == 0;
    }
    void* result = fn(arg);
    if (ThreadState* t = tls_state; t != nullptr && !ends_in_destructor) thread_exit(t);
    return result;
}

} // namespace

namespace {
bool ends_in_exit_key_destructor() {
    if (!exit_key_ready()) return false;
    return pthread_getspecific(g_exit_key) != nullptr ||
           pthread_setspecific(g_exit_key, reinterpret_cast<void*>(kExitRoundOne)) == 0;
}
} // namespace

void frt::attached_thread_started() {
    // glibc hands its own threads' cached stacks on as it does the program's (a SIGEV_THREAD
    // notification thread runs on the stack of the previous one): ordered after that thread's end.
    if (InterceptorScope scope(enter_attached()); scope) storage_handed_over(scope.thread());
    if (exit_key_ready()) pthread_setspecific(g_exit_key, reinterpret_cast<void*>(kExitRoundOne));
}

// --- threads ------------------------------------------------------------------------------------

FRT_EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*),
                              void* arg) {
    auto real = REAL(pthread_create);
    InterceptorScope scope;
    if (!scope) return real(thread, attr, fn, arg);
    ThreadState* t = scope.thread();
    exit_key_ready();
    StartArgs* a = new_start_args();
    if (a == nullptr) return scope.outside([&] { return real(thread, attr, fn, arg); });
    const u64 c0 = now();
    close_computation(t, c0);
    a->fn = fn;
    a->arg = arg;
    // The child frees `a` as it starts and another pthread_create may take it at once: what
    // the creator needs after the real call is kept here (reading a->pid afterwards gave 1 run
    // in 8 of thread-handle-reuse a fork and join of another creator's child).
    const u32 child = new_pid();
    a->pid = child;
    a->parent = t->pid;
    start_args_created(a);
    // What glibc does inside pthread_create on the creator's side is not the program's access:
    // reusing a cached stack (get_cached_stack) it frees the dynamic TLS blocks of the thread
    // that ended on it, which that thread wrote without any ordering to the creator. The frees
    // still order the blocks' reuse (the allocator's Release); the new thread is ordered after
    // the old one by the stack reuse itself (kObjThreadStorage).
    ++t->ignore_reads_depth;
    ++t->ignore_writes_depth;
    t->ignore_access_kinds = fmt::kRead | fmt::kWrite; // the event is closed: no sites to drop
    // Signals stay blocked until the new thread is registered (thread_start): a handler that
    // ran on it before would be traced as a thread of its own, created by nobody and never
    // ended, its accesses unordered with everything (compiler-rt's signal_block under load;
    // ThreadSanitizer's fix of google/sanitizers#1540 is the same). The new thread then takes the
    // mask it would have had: the attribute's (pthread_attr_setsigmask_np) or the creator's.
    sigset_t all, creator_mask;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &creator_mask);
    a->mask = creator_mask;
    if (sigset_t attr_mask; attr != nullptr && pthread_attr_getsigmask_np(attr, &attr_mask) == 0)
        a->mask = attr_mask;
    const int r = scope.outside([&] { return real(thread, attr, thread_start, a); });
    pthread_sigmask(SIG_SETMASK, &creator_mask, nullptr);
    --t->ignore_reads_depth;
    --t->ignore_writes_depth;
    t->ignore_access_kinds = static_cast<u8>((t->ignore_reads_depth ? fmt::kRead : 0) |
                                             (t->ignore_writes_depth ? fmt::kWrite : 0));
    if (r == 0) {
        // glibc reuses the handle (the thread descriptor) of a thread that ended, once it is
        // joined or, detached, at once: a detached thread may already have ended and its handle
        // belong to a newer thread, which maps itself at its start. A joinable thread's handle
        // is this thread's until joined, and mapping it here covers a join before it starts.
        int detach_state = PTHREAD_CREATE_JOINABLE;
        if (attr != nullptr) pthread_attr_getdetachstate(attr, &detach_state);
        if (detach_state != PTHREAD_CREATE_DETACHED) map_thread(static_cast<u64>(*thread), child);
        SyncRecord rec{};
        rec.op = fmt::kOpFork;
        rec.cls = fmt::kObjThread;
        rec.object = child;
        rec.clock_start = c0;
        rec.clock_finish = now();
        rec.pc = tls_library_creation_pc != 0 ? tls_library_creation_pc : FRT_CALLER();
        emit_sync(t, rec);
    } else {
        process_joined(); // the child never existed
        free_start_args(a);
    }
    return r;
}

namespace {
// A join: the computation event ends at the call, the Join record follows a successful return.
// The child is looked up before the real join: once it returns, glibc may hand the joined
// thread's descriptor, and with it the same pthread_t, to a thread another one creates at once,
// which maps itself (a join of the wrong thread lost every ordering of the joined one).
template <class Real, class... Args>
int join_common(pthread_t thread, u64 pc, Real real, Args... args) {
    InterceptorScope scope;
    if (!scope) return real(thread, args...);
    ThreadState* t = scope.thread();
    const u64 c0 = now();
    close_computation(t, c0);
    const u32 child = lookup_thread(static_cast<u64>(thread));
    const int r = scope.outside([&] { return real(thread, args...); });
    if (r == 0) {
        if (child != kNoPid) {
            process_joined();
            SyncRecord rec{};
            rec.op = fmt::kOpJoin;
            rec.cls = fmt::kObjThread;
            rec.object = child;
            rec.clock_start = c0;
            rec.clock_finish = now();
            rec.pc = pc;
            emit_sync(t, rec);
        }
    }
    return r;
}
} // namespace

FRT_EXPORT int pthread_join(pthread_t thread, void** ret) {
    return join_common(thread, FRT_CALLER(), REAL(pthread_join), ret);
}

FRT_EXPORT int pthread_tryjoin_np(pthread_t thread, void** ret) {
    return join_common(thread, FRT_CALLER(), REAL(pthread_tryjoin_np), ret);
}

FRT_EXPORT int pthread_timedjoin_np(pthread_t thread, void** ret, const struct timespec* abstime) {
    return join_common(thread, FRT_CALLER(), REAL(pthread_timedjoin_np), ret, abstime);
}

FRT_EXPORT int pthread_clockjoin_np(pthread_t thread, void** ret, clockid_t clock,
                                    const struct timespec* abstime) {
    return join_common(thread, FRT_CALLER(), REAL(pthread_clockjoin_np), ret, clock, abstime);
}

// pthread_exit runs the thread's cleanup handlers, C++ thread_local destructors and key
// destructors (POSIX XSH pthread_exit, pthread_key_create) before the thread ends: the trace
// ends in the exit key's destructor as for a return from the start routine, so that what the
// destructors write is traced and ordered before a join. The main thread and threads the runtime
// did not start get the exit key here; only when it cannot be set does the trace end now.
FRT_EXPORT void pthread_exit(void* value) {
    auto real = REAL(pthread_exit);
    if (ThreadState* t = tls_state; t != nullptr && t->guard == 0 && !ends_in_exit_key_destructor())
        thread_exit(t);
    real(value);
    __builtin_unreachable();
}

// pthread_once (std::call_once in libstdc++): the init routine's end is a Release on
// kObjOnce at the once control, every call that returns without running the routine (it ran
// before, or in another thread while this one waited) an Acquire. A routine that exits by an
// exception (an exceptional execution of std::call_once) is a Release too, and a routine that
// starts after one acquires it: the next execution is synchronized with it (C++20
// [thread.once.callonce]; rt_unwind_watch.c sees the exception pass). The routine takes no
// argument, so the interposed call runs a trampoline that finds its frame in TLS (once calls
// nest when a routine calls pthread_once itself).
namespace {
struct OnceFrame {
    void (*routine)();
    const pthread_once_t* once;
    u64 pc;
    bool ran;
    OnceFrame* outer;
};
__thread OnceFrame* tls_once __attribute__((tls_model("initial-exec"))) = nullptr;

void once_routine_ended(OnceFrame* f) {
    if (InterceptorScope scope; scope)
        release_now(scope.thread(), fmt::kObjOnce, f->once, f->pc, false);
}

void once_routine_unwound(void* frame) {
    auto* f = static_cast<OnceFrame*>(frame);
    once_routine_ended(f);
    tls_once = f->outer; // the exception leaves the interposed pthread_once too
}

void once_routine_run(void* frame) {
    static_cast<OnceFrame*>(frame)->routine();
}

void once_trampoline() {
    OnceFrame* f = tls_once;
    if (InterceptorScope scope; scope && find_object(fmt::kObjOnce, f->once) != nullptr)
        acquire_now(scope.thread(), fmt::kObjOnce, f->once, f->pc); // an exceptional execution
    frt_unwind_watch watch{once_routine_run, once_routine_unwound, f, false};
    frt_run_watching_unwind(&watch);
    f->ran = true;
    once_routine_ended(f);
}
FRT_DECLARE_REAL(pthread_once);
} // namespace

FRT_EXPORT int pthread_once(pthread_once_t* once, void (*routine)()) {
    auto real = REAL(pthread_once);
    OnceFrame f{routine, once, FRT_CALLER(), false, tls_once};
    tls_once = &f;
    const int r = real(once, once_trampoline);
    tls_once = f.outer;
    if (r == 0 && !f.ran) {
        InterceptorScope scope;
        if (scope && find_object(fmt::kObjOnce, once) != nullptr)
            acquire_now(scope.thread(), fmt::kObjOnce, once, f.pc);
    }
    return r;
}

// Thread names become process names in the trace ("thread 3 (worker)").
FRT_EXPORT int pthread_setname_np(pthread_t thread, const char* name) {
    const int r = REAL(pthread_setname_np)(thread, name);
    if (r != 0) return r;
    InterceptorScope scope;
    if (!scope) return r;
    ThreadState* t = scope.thread();
    const u32 pid =
        pthread_equal(thread, pthread_self()) ? t->pid : lookup_thread(static_cast<u64>(thread));
    if (pid != kNoPid) emit_name(t, pid, name);
    return r;
}

// --- creation and destruction of synchronization objects: writes of their memory ------------

namespace {
FRT_DECLARE_REAL(pthread_mutex_init);
FRT_DECLARE_REAL(pthread_mutex_destroy);
FRT_DECLARE_REAL(pthread_rwlock_init);
FRT_DECLARE_REAL(pthread_rwlock_destroy);
FRT_DECLARE_REAL(pthread_spin_init);
FRT_DECLARE_REAL(pthread_spin_destroy);
FRT_DECLARE_REAL_VERSIONED(pthread_cond_init, "GLIBC_2.3.2");
FRT_DECLARE_REAL_VERSIONED(pthread_cond_destroy, "GLIBC_2.3.2");
FRT_DECLARE_REAL(pthread_barrier_destroy);
FRT_DECLARE_REAL(sem_destroy);
} // namespace

FRT_EXPORT int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* attr) {
    if (sync_modelled_above()) return REAL(pthread_mutex_init)(m, attr);
    sync_object_written(FRT_CALLER(), m);
    const int r = REAL(pthread_mutex_init)(m, attr);
    if (r == 0) lock_started(fmt::kObjMutex, m);
    return r;
}
FRT_EXPORT int pthread_mutex_destroy(pthread_mutex_t* m) {
    if (sync_modelled_above()) return REAL(pthread_mutex_destroy)(m);
    sync_object_written(FRT_CALLER(), m);
    return REAL(pthread_mutex_destroy)(m);
}
FRT_EXPORT int pthread_rwlock_init(pthread_rwlock_t* l, const pthread_rwlockattr_t* attr) {
    if (sync_modelled_above()) return REAL(pthread_rwlock_init)(l, attr);
    sync_object_written(FRT_CALLER(), l);
    const int r = REAL(pthread_rwlock_init)(l, attr);
    if (r == 0) {
        lock_started(fmt::kObjRwLock, l);
        lock_started(fmt::kObjRwLockReaders, l);
    }
    return r;
}
FRT_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t* l) {
    if (sync_modelled_above()) return REAL(pthread_rwlock_destroy)(l);
    sync_object_written(FRT_CALLER(), l);
    return REAL(pthread_rwlock_destroy)(l);
}
FRT_EXPORT int pthread_spin_init(pthread_spinlock_t* l, int pshared) {
    sync_object_written(FRT_CALLER(), const_cast<const int*>(l));
    const int r = REAL(pthread_spin_init)(l, pshared);
    if (r == 0) lock_started(fmt::kObjSpinLock, const_cast<const int*>(l));
    return r;
}
FRT_EXPORT int pthread_spin_destroy(pthread_spinlock_t* l) {
    sync_object_written(FRT_CALLER(), const_cast<const int*>(l));
    return REAL(pthread_spin_destroy)(l);
}
FRT_EXPORT int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* attr) {
    sync_object_written(FRT_CALLER(), c);
    return REAL(pthread_cond_init)(c, attr);
}
FRT_EXPORT int pthread_cond_destroy(pthread_cond_t* c) {
    sync_object_written(FRT_CALLER(), c);
    return REAL(pthread_cond_destroy)(c);
}
FRT_EXPORT int pthread_barrier_destroy(pthread_barrier_t* b) {
    const u64 pc = FRT_CALLER();
    if (in_openmp_runtime(pc)) return REAL(pthread_barrier_destroy)(b);
    InterceptorScope scope(enter_call(pc));
    if (!scope) return REAL(pthread_barrier_destroy)(b);
    return barrier_destroy(scope, b, pc, REAL(pthread_barrier_destroy)); // rt_sync_misuse.hpp
}
FRT_EXPORT int sem_destroy(sem_t* s) {
    sync_object_written(FRT_CALLER(), s);
    return REAL(sem_destroy)(s);
}

// --- mutexes, rwlocks, spinlocks --------------------------------------------------------------

FRT_EXPORT int pthread_mutex_lock(pthread_mutex_t* m) {
    return acquire_op(fmt::kObjMutex, m, FRT_CALLER(), REAL(pthread_mutex_lock), m);
}
FRT_EXPORT int pthread_mutex_trylock(pthread_mutex_t* m) {
    return acquire_op(fmt::kObjMutex, m, FRT_CALLER(), REAL(pthread_mutex_trylock), m);
}
FRT_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) {
    return acquire_op(fmt::kObjMutex, m, FRT_CALLER(), REAL(pthread_mutex_timedlock), m, abstime);
}
FRT_EXPORT int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t clock,
                                       const struct timespec* abstime) {
    return acquire_op(fmt::kObjMutex, m, FRT_CALLER(), REAL(pthread_mutex_clocklock), m, clock,
                      abstime);
}
FRT_EXPORT int pthread_mutex_unlock(pthread_mutex_t* m) {
    const int r = release_op(fmt::kObjMutex, m, FRT_CALLER(), false, REAL(pthread_mutex_unlock), m);
    if (r == 0)
        if (ThreadState* t = tls_state; t != nullptr) robust_mutex_unlocked(t, m);
    return r;
}

namespace {
// Read lock: ordered after the last write unlock.
template <class Real, class... Args>
int rwlock_read(pthread_rwlock_t* l, u64 pc, Real real, Args... args) {
    return acquire_op(fmt::kObjRwLock, l, pc, real, l, args...);
}

// Write lock: ordered after the last write unlock and after every read unlock before it.
template <class Real, class... Args>
int rwlock_write(pthread_rwlock_t* l, u64 pc, Real real, Args... args) {
    if (sync_modelled_above()) return real(l, args...);
    InterceptorScope scope;
    if (!scope) return real(l, args...);
    ThreadState* t = scope.thread();
    const u64 c0 = sync_op_begins(t);
    const int r = scope.outside([&] { return real(l, args...); });
    if (r == 0) {
        acquired(t, fmt::kObjRwLock, l, c0, pc);
        acquired(t, fmt::kObjRwLockReaders, l, c0, pc);
    }
    return r;
}
} // namespace

FRT_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
    return rwlock_read(l, FRT_CALLER(), REAL(pthread_rwlock_rdlock));
}
FRT_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t* l) {
    return rwlock_read(l, FRT_CALLER(), REAL(pthread_rwlock_tryrdlock));
}
FRT_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t* l, const struct timespec* abstime) {
    return rwlock_read(l, FRT_CALLER(), REAL(pthread_rwlock_timedrdlock), abstime);
}
FRT_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t* l, clockid_t clock,
                                          const struct timespec* abstime) {
    return rwlock_read(l, FRT_CALLER(), REAL(pthread_rwlock_clockrdlock), clock, abstime);
}
FRT_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
    return rwlock_write(l, FRT_CALLER(), REAL(pthread_rwlock_wrlock));
}
FRT_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t* l) {
    return rwlock_write(l, FRT_CALLER(), REAL(pthread_rwlock_trywrlock));
}
FRT_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t* l, const struct timespec* abstime) {
    return rwlock_write(l, FRT_CALLER(), REAL(pthread_rwlock_timedwrlock), abstime);
}
FRT_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t* l, clockid_t clock,
                                          const struct timespec* abstime) {
    return rwlock_write(l, FRT_CALLER(), REAL(pthread_rwlock_clockwrlock), clock, abstime);
}
FRT_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t* l) {
    auto real = REAL(pthread_rwlock_unlock);
    if (sync_modelled_above()) return real(l);
    bool write;
    {
        InterceptorScope scope;
        if (!scope) return real(l);
        // glibc keeps the TID of the thread holding the write lock in __cur_writer
        write = l->__data.__cur_writer == scope.thread()->os_tid;
    }
    if (write) return release_op(fmt::kObjRwLock, l, FRT_CALLER(), false, real, l);
    return release_op(fmt::kObjRwLockReaders, l, FRT_CALLER(), true, real, l);
}

FRT_EXPORT int pthread_spin_lock(pthread_spinlock_t* l) {
    return acquire_op(fmt::kObjSpinLock, const_cast<const int*>(l), FRT_CALLER(),
                      REAL(pthread_spin_lock), l);
}
FRT_EXPORT int pthread_spin_trylock(pthread_spinlock_t* l) {
    return acquire_op(fmt::kObjSpinLock, const_cast<const int*>(l), FRT_CALLER(),
                      REAL(pthread_spin_trylock), l);
}
FRT_EXPORT int pthread_spin_unlock(pthread_spinlock_t* l) {
    return release_op(fmt::kObjSpinLock, const_cast<const int*>(l), FRT_CALLER(), false,
                      REAL(pthread_spin_unlock), l);
}

// --- condition variables ----------------------------------------------------------------------

// The start of a wait on condition c with mutex m: both objects used, then the Release of m
// (the wait unlocks it).
void frt::cond_wait_began(ThreadState* t, const void* c, const void* m, u64 pc) {
    sync_object_used(t, pc, c);
    sync_object_used(t, pc, m);
    const u64 c0 = sync_op_begins(t);
    released(t, fmt::kObjMutex, m, release_ticket(fmt::kObjMutex, m, false), false, c0, pc);
}

// The end of a wait: it returns with m locked, also on timeout, and a cancellation acted upon
// in the wait re-acquires m before the first cleanup handler runs (POSIX XSH
// pthread_cond_wait): CondWait, then the Acquire of m.
void frt::cond_wait_ended(ThreadState* t, const void* c, const void* m, u64 pc) {
    const u64 c1 = now();
    ObjEntry* co = object(fmt::kObjCondition, c);
    record(t, fmt::kOpCondWait, fmt::kObjCondition, c, co->counter.fetch_add(1), c1, pc);
    acquired(t, fmt::kObjMutex, m, c1, pc);
}

// A signal or broadcast of condition c, before the real call.
void frt::cond_signal_recorded(ThreadState* t, const void* c, u64 pc) {
    sync_object_used(t, pc, c);
    const u64 c0 = sync_op_begins(t);
    ObjEntry* co = object(fmt::kObjCondition, c);
    record(t, fmt::kOpCondSignal, fmt::kObjCondition, c, co->counter.fetch_add(1), c0, pc);
}

namespace {
// A wait in progress, for the unwind of a cancellation (rt_unwind_watch.c): the cleanup
// handlers the unwind runs next are the program's code and may use what m protects.
struct CondWaitFrame {
    pthread_cond_t* c;
    pthread_mutex_t* m;
    u64 pc;
    void* call; // the real wait, a lambda of cond_wait_common
    void (*run)(void* call);
};
void cond_wait_run(void* frame) {
    auto* f = static_cast<CondWaitFrame*>(frame);
    f->run(f->call);
}
void cond_wait_cancelled(void* frame) {
    auto* f = static_cast<CondWaitFrame*>(frame);
    if (InterceptorScope scope; scope) cond_wait_ended(scope.thread(), f->c, f->m, f->pc);
}

template <class Real, class... Args>
int cond_wait_common(pthread_cond_t* c, pthread_mutex_t* m, u64 pc, Real real, Args... args) {
    InterceptorScope scope;
    if (!scope) return real(c, m, args...);
    ThreadState* t = scope.thread();
    cond_wait_began(t, c, m, pc);
    int r = 0;
    auto wait = [&] { r = real(c, m, args...); };
    CondWaitFrame frame{c, m, pc, &wait, [](void* w) { (*static_cast<decltype(wait)*>(w))(); }};
    scope.outside([&] {
        frt_unwind_watch watch{cond_wait_run, cond_wait_cancelled, &frame, false};
        frt_run_watching_unwind(&watch);
    });
    cond_wait_ended(t, c, m, pc);
    return r;
}

template <class Real> int cond_signal_common(pthread_cond_t* c, u64 pc, Real real) {
    InterceptorScope scope;
    if (!scope) return real(c);
    cond_signal_recorded(scope.thread(), c, pc);
    return scope.outside([&] { return real(c); });
}
} // namespace

FRT_EXPORT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
    return cond_wait_common(c, m, FRT_CALLER(), REAL(pthread_cond_wait));
}
FRT_EXPORT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m,
                                      const struct timespec* abstime) {
    return cond_wait_common(c, m, FRT_CALLER(), REAL(pthread_cond_timedwait), abstime);
}
// std::condition_variable::wait_for/wait_until (steady clock) in libstdc++ use this one
FRT_EXPORT int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                                      const struct timespec* abstime) {
    return cond_wait_common(c, m, FRT_CALLER(), REAL(pthread_cond_clockwait), clock, abstime);
}
FRT_EXPORT int pthread_cond_signal(pthread_cond_t* c) {
    return cond_signal_common(c, FRT_CALLER(), REAL(pthread_cond_signal));
}
FRT_EXPORT int pthread_cond_broadcast(pthread_cond_t* c) {
    return cond_signal_common(c, FRT_CALLER(), REAL(pthread_cond_broadcast));
}

// --- barriers ------------------------------------------------------------------------------------

// An init while threads are blocked in a round of the barrier (rt_sync_misuse.hpp) is a misuse,
// recorded instead of the write of the barrier.
FRT_EXPORT int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* attr,
                                    unsigned count) {
    const u64 pc = FRT_CALLER();
    bool in_progress = false;
    if (ObjEntry* o = g_state.load() == RtState::Ready ? find_object(fmt::kObjBarrier, b) : nullptr;
        o != nullptr) {
        spin_lock(o->spin);
        in_progress = barrier_round_in_progress(o);
        spin_unlock(o->spin);
    }
    if (!in_progress) {
        sync_object_written(pc, b);
    } else if (InterceptorScope scope(enter_call(pc)); scope && !in_openmp_runtime(pc)) {
        emit_misuse(scope.thread(), fmt::kMisuseInitWaiters, fmt::kObjBarrier,
                    reinterpret_cast<u64>(b), pc);
    }
    const int r = REAL(pthread_barrier_init)(b, attr, count);
    if (r == 0 && g_state.load() == RtState::Ready) {
        ObjEntry* o = object(fmt::kObjBarrier, b);
        spin_lock(o->spin);
        o->extra.store(count);
        o->counter.store(0);
        o->incarnation.fetch_add(1);
        spin_unlock(o->spin);
    }
    return r;
}

FRT_EXPORT int pthread_barrier_wait(pthread_barrier_t* b) {
    auto real = REAL(pthread_barrier_wait);
    InterceptorScope scope;
    if (!scope) return real(b);
    ThreadState* t = scope.thread();
    const u64 pc = FRT_CALLER();
    sync_object_used(t, pc, b);
    const u64 c0 = now();
    close_computation(t, c0);
    ObjEntry* o = object(fmt::kObjBarrier, b);
    // The arrival is taken under the entry's spin lock, with the count and incarnation it
    // belongs to (an init or destroy reads them together: rt_sync_misuse.hpp).
    spin_lock(o->spin);
    const i64 count = o->extra.load();
    const u32 inc = o->incarnation.load();
    const u64 arrival = o->counter.fetch_add(1);
    spin_unlock(o->spin);
    const u64 episode = count > 0 ? arrival / static_cast<u64>(count) : arrival;
    record(t, fmt::kOpBarrierArrive, fmt::kObjBarrier, b, episode, c0, pc, count, inc);
    const u32 slot = barrier_wait_entered(reinterpret_cast<u64>(b)); // for a free meanwhile
    const int r = scope.outside([&] { return real(b); });
    barrier_wait_left(slot);
    // Leaving the wait reads the barrier again, before this thread is ordered after the other
    // arrivals: a pthread_barrier_destroy by the serial thread races with another thread's
    // return from the same wait (POSIX: undefined while a thread is still in the wait;
    // ThreadSanitizer reads the barrier after the wait too).
    sync_object_used(t, pc, b);
    const u64 c1 = now();
    close_computation(t, c1);
    record(t, fmt::kOpBarrierDepart, fmt::kObjBarrier, b, episode, c1, pc, count, inc);
    barrier_departed(t, b, o, inc, episode, pc); // a destroy may wait for this round
    return r;
}

// --- semaphores ----------------------------------------------------------------------------------

namespace {
// A semaphore starts (a new incarnation, fresh counters) with `value` tokens.
void semaphore_started(sem_t* s, unsigned value) {
    if (g_state.load() != RtState::Ready) return;
    ObjEntry* o = object(fmt::kObjSemaphore, s);
    spin_lock(o->spin);
    o->extra.store(value);
    o->counter.store(0);
    o->counter2.store(0);
    o->incarnation.fetch_add(1);
    spin_unlock(o->spin);
}
} // namespace

FRT_EXPORT int sem_init(sem_t* s, int pshared, unsigned value) {
    sync_object_written(FRT_CALLER(), s);
    const int r = REAL(sem_init)(s, pshared, value);
    if (r == 0) semaphore_started(s, value);
    return r;
}

// A named semaphore: the first sem_open of it in this process (glibc maps each name once and
// returns the same address to later opens until the last sem_close) starts it with the tokens
// it holds now -- `value` when this call created it, whatever posts and waits of other processes
// left otherwise -- since only this process's posts and waits are in the trace. The opener has
// not handed the address to another thread yet, so nothing of this process ran on it before.
FRT_EXPORT sem_t* sem_open(const char* name, int oflag, ...) {
    mode_t mode = 0;
    unsigned value = 0;
    if (oflag & O_CREAT) {
        va_list ap;
        va_start(ap, oflag);
        mode = va_arg(ap, mode_t);
        value = va_arg(ap, unsigned);
        va_end(ap);
    }
    sem_t* s = REAL(sem_open)(name, oflag, mode, value);
    if (s != SEM_FAILED && find_object(fmt::kObjSemaphore, s) == nullptr) {
        int now_value = 0;
        if (REAL(sem_getvalue)(s, &now_value) == 0 && now_value >= 0)
            semaphore_started(s, static_cast<unsigned>(now_value));
    }
    return s;
}

FRT_EXPORT int sem_post(sem_t* s) {
    auto real = REAL(sem_post);
    InterceptorScope scope;
    if (!scope) return real(s);
    ThreadState* t = scope.thread();
    sync_object_used(t, FRT_CALLER(), s);
    const u64 c0 = now();
    close_computation(t, c0);
    ObjEntry* o = object(fmt::kObjSemaphore, s);
    spin_lock(o->spin); // the post counter follows the real order of posts
    const u64 c = o->counter.fetch_add(1);
    const int r = real(s);
    spin_unlock(o->spin);
    record(t, fmt::kOpSemPost, fmt::kObjSemaphore, s, c, c0, FRT_CALLER(), o->extra.load(),
           o->incarnation.load());
    return r;
}

namespace {
template <class Real, class... Args>
int sem_wait_common(sem_t* s, u64 pc, Real real, Args... args) {
    InterceptorScope scope;
    if (!scope) return real(s, args...);
    ThreadState* t = scope.thread();
    sync_object_used(t, pc, s);
    const u64 c0 = now();
    close_computation(t, c0);
    const int r = scope.outside([&] { return real(s, args...); });
    if (r == 0) {
        ObjEntry* o = object(fmt::kObjSemaphore, s);
        record(t, fmt::kOpSemWait, fmt::kObjSemaphore, s, o->counter2.fetch_add(1), c0, pc,
               o->extra.load(), o->incarnation.load());
    }
    return r;
}
} // namespace

FRT_EXPORT int sem_wait(sem_t* s) {
    return sem_wait_common(s, FRT_CALLER(), REAL(sem_wait));
}
FRT_EXPORT int sem_trywait(sem_t* s) {
    return sem_wait_common(s, FRT_CALLER(), REAL(sem_trywait));
}
FRT_EXPORT int sem_timedwait(sem_t* s, const struct timespec* abstime) {
    return sem_wait_common(s, FRT_CALLER(), REAL(sem_timedwait), abstime);
}
FRT_EXPORT int sem_clockwait(sem_t* s, clockid_t clock, const struct timespec* abstime) {
    return sem_wait_common(s, FRT_CALLER(), REAL(sem_clockwait), clock, abstime);
}

// --- process exit -----------------------------------------------------------------------------

FRT_EXPORT void _exit(int status) {
    auto real = REAL(_exit);
    finalize("_exit", status, false);
    real(status);
    __builtin_unreachable();
}
FRT_EXPORT void _Exit(int status) {
    auto real = REAL(_Exit);
    finalize("_exit", status, false);
    real(status);
    __builtin_unreachable();
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(pthread_mutex_init)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_destroy)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_init)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_destroy)
FRT_INTERCEPTOR_ALIAS(pthread_spin_init)
FRT_INTERCEPTOR_ALIAS(pthread_spin_destroy)
FRT_INTERCEPTOR_ALIAS(pthread_cond_init)
FRT_INTERCEPTOR_ALIAS(pthread_cond_destroy)
FRT_INTERCEPTOR_ALIAS(pthread_barrier_destroy)
FRT_INTERCEPTOR_ALIAS(sem_destroy)
FRT_INTERCEPTOR_ALIAS(pthread_create)
FRT_INTERCEPTOR_ALIAS(pthread_join)
FRT_INTERCEPTOR_ALIAS(pthread_tryjoin_np)
FRT_INTERCEPTOR_ALIAS(pthread_timedjoin_np)
FRT_INTERCEPTOR_ALIAS(pthread_clockjoin_np)
FRT_INTERCEPTOR_ALIAS(pthread_exit)
FRT_INTERCEPTOR_ALIAS(pthread_once)
FRT_INTERCEPTOR_ALIAS(pthread_setname_np)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_lock)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_trylock)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_timedlock)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_clocklock)
FRT_INTERCEPTOR_ALIAS(pthread_mutex_unlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_rdlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_tryrdlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_timedrdlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_clockrdlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_wrlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_trywrlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_timedwrlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_clockwrlock)
FRT_INTERCEPTOR_ALIAS(pthread_rwlock_unlock)
FRT_INTERCEPTOR_ALIAS(pthread_spin_lock)
FRT_INTERCEPTOR_ALIAS(pthread_spin_trylock)
FRT_INTERCEPTOR_ALIAS(pthread_spin_unlock)
FRT_INTERCEPTOR_ALIAS(pthread_cond_wait)
FRT_INTERCEPTOR_ALIAS(pthread_cond_timedwait)
FRT_INTERCEPTOR_ALIAS(pthread_cond_clockwait)
FRT_INTERCEPTOR_ALIAS(pthread_cond_signal)
FRT_INTERCEPTOR_ALIAS(pthread_cond_broadcast)
FRT_INTERCEPTOR_ALIAS(pthread_barrier_init)
FRT_INTERCEPTOR_ALIAS(pthread_barrier_wait)
FRT_INTERCEPTOR_ALIAS(sem_init)
FRT_INTERCEPTOR_ALIAS(sem_open)
FRT_INTERCEPTOR_ALIAS(sem_post)
FRT_INTERCEPTOR_ALIAS(sem_wait)
FRT_INTERCEPTOR_ALIAS(sem_trywait)
FRT_INTERCEPTOR_ALIAS(sem_timedwait)
FRT_INTERCEPTOR_ALIAS(sem_clockwait)
FRT_INTERCEPTOR_ALIAS(_exit)
FRT_INTERCEPTOR_ALIAS(_Exit)
