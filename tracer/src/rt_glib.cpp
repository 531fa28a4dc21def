// GLib's synchronization API (libglib-2.0), modelled at its own functions.
//
// Programs call GLib's threading API against the distribution's libglib, which is not
// instrumented: GMutex and GCond are futex words whose uncontended operations are atomic
// instructions inside libglib, and the higher-level objects (GAsyncQueue, GThreadPool, GOnce)
// synchronize through those internally -- libglib calls its own g_mutex_lock directly, not
// through its PLT. Without this file every GMutex-protected datum looked racy. The runtime is
// linked before libglib, so its definitions of the exported functions below take the program's
// calls (and those of other libraries, libgio's, through their PLT); each forwards to libglib's
// (REAL, resolved by name at initialisation, or at the first call when libglib is opened later
// by dlopen: rt_real.hpp). The runtime does not include GLib's headers nor link against it: the
// few types it needs are declared here, opaque or with GLib's public layout.
//
//   GMutex           g_mutex_lock / g_mutex_trylock (TRUE): Acquire (kObjMutex at the GMutex)
//                    after; g_mutex_unlock: Release before; g_mutex_init / g_mutex_clear:
//                    writes of it, init starts a new incarnation (as pthread_mutex_init).
//   GRecMutex,       libglib (2.74, Linux) allocates a pthread mutex / rwlock at the first use
//   GRWLock          (or init), publishes it with an atomic of its own and calls pthread_*
//                    through its PLT: modelled here on the GLib object instead (GRecMutex as a
//                    mutex, GRWLock as rt_interceptors.cpp models pthread_rwlock_t), the pthread
//                    interceptors the real call reaches passing through (sync_modelled_above)
//                    and its accesses ignored -- else pthread_*_init's write of the object
//                    libglib allocated raced with its first use by another thread, and reports
//                    named a heap block instead of the program's lock.
//   GCond            g_cond_wait / g_cond_wait_until: Release(mutex), wait, CondWait(cond),
//                    Acquire(mutex); g_cond_signal / g_cond_broadcast: CondSignal before.
//   g_once_init_*    the macro's fast path is an acquire load in the program (instrumented):
//                    g_once_init_leave is the release store it reads (kObjAtomic at the
//                    location, rt_atomic_model.hpp), recorded just before libglib's store;
//                    g_once_init_enter returning FALSE is an acquire load of it.
//   g_once_impl      the function runs through a trampoline: its end is the release store of
//                    once->status (the g_once macro's acquire load reads it); a call that did not
//                    run it is an acquire load.
//   bit locks        g_bit_lock / g_pointer_bit_lock (and trylock TRUE): Acquire after; unlock:
//                    Release before, on kObjGLibBitLock (address, bit): one lock per bit.
//   GAsyncQueue      its mutex, kObjMutex at the queue: g_async_queue_lock / unlock are its lock
//                    and unlock; a locked operation (push, push_front, push_sorted, pop,
//                    try_pop, timeout_pop, timed_pop, remove, sort) is run as libglib runs it,
//                    lock + the _unlocked operation + unlock, with the real lock and unlock
//                    calls so that the Acquire and the Release are taken while the lock is held;
//                    a pop that may wait releases the mutex in the wait: Release before it,
//                    Acquire after (also for the _unlocked pops under g_async_queue_lock).
//   GThreadPool      the task function is wrapped at g_thread_pool_new(_full) by a trampoline
//                    whose user data is a record holding the program's function and data
//                    (runtime memory, never the program's malloc); g_thread_pool_push(pool,
//                    data) is a Release of (pool, data), the task's run on a worker the Acquire
//                    of it (kObjGLibPoolTask); every task's end is a merging Release of the
//                    pool (kObjGLibPoolDone), which g_thread_pool_free(pool, _, wait_=TRUE)
//                    acquires after it returned.
//
// Not modelled: the GMainContext hand-offs (g_idle_add, g_timeout_add, g_main_context_invoke,
// g_source_attach from another thread to a loop's dispatch; the loop's eventfd wakeup orders
// some of them, rt_fd.cpp), GThreadPool's sort function, and
// GLib's deprecated GStaticMutex / GStaticRecMutex / GStaticRWLock. GThread: g_thread_new and
// g_thread_join reach pthread_create / pthread_join through libglib's PLT (interposed); the
// thread's creation is recorded at the program's call of g_thread_new / g_thread_try_new.
#include "rt_atomic_model.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"
#include "rt_thread_start_args.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {

// GLib's types, as far as the runtime needs them (ABI: gboolean is int, gpointer void*).
using gboolean = int;
using gpointer = void*;
using GFunc = void (*)(gpointer data, gpointer user_data);
using GThreadFunc = gpointer (*)(gpointer data);
using GDestroyNotify = void (*)(gpointer data);
using GCompareDataFunc = int (*)(const void* a, const void* b, gpointer user_data);
// GThreadPool's public part (glib/gthreadpool.h): the pool GLib returns starts with it.
struct PublicThreadPool {
    GFunc func;
    gpointer user_data;
    gboolean exclusive;
};

using ObjFn = void (*)(void*);
using ObjBoolFn = gboolean (*)(void*);
using BitFn = void (*)(volatile void*, int);
using BitBoolFn = gboolean (*)(volatile void*, int);
FRT_DECLARE_REAL_TYPED(g_mutex_init, ObjFn);
FRT_DECLARE_REAL_TYPED(g_mutex_clear, ObjFn);
FRT_DECLARE_REAL_TYPED(g_mutex_lock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_mutex_trylock, ObjBoolFn);
FRT_DECLARE_REAL_TYPED(g_mutex_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rec_mutex_init, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rec_mutex_clear, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rec_mutex_lock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rec_mutex_trylock, ObjBoolFn);
FRT_DECLARE_REAL_TYPED(g_rec_mutex_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_init, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_clear, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_writer_lock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_writer_trylock, ObjBoolFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_writer_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_reader_lock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_reader_trylock, ObjBoolFn);
FRT_DECLARE_REAL_TYPED(g_rw_lock_reader_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_cond_init, ObjFn);
FRT_DECLARE_REAL_TYPED(g_cond_clear, ObjFn);
FRT_DECLARE_REAL_TYPED(g_cond_signal, ObjFn);
FRT_DECLARE_REAL_TYPED(g_cond_broadcast, ObjFn);
FRT_DECLARE_REAL_TYPED(g_cond_wait, void (*)(void*, void*));
FRT_DECLARE_REAL_TYPED(g_cond_wait_until, gboolean (*)(void*, void*, long));
FRT_DECLARE_REAL_TYPED(g_once_init_enter, gboolean (*)(volatile void*));
FRT_DECLARE_REAL_TYPED(g_once_init_leave, void (*)(volatile void*, unsigned long));
FRT_DECLARE_REAL_TYPED(g_once_init_enter_pointer, gboolean (*)(void*));
FRT_DECLARE_REAL_TYPED(g_once_init_leave_pointer, void (*)(void*, gpointer));
FRT_DECLARE_REAL_TYPED(g_once_impl, gpointer (*)(void*, GThreadFunc, gpointer));
FRT_DECLARE_REAL_TYPED(g_bit_lock, BitFn);
FRT_DECLARE_REAL_TYPED(g_bit_trylock, BitBoolFn);
FRT_DECLARE_REAL_TYPED(g_bit_unlock, BitFn);
FRT_DECLARE_REAL_TYPED(g_pointer_bit_lock, BitFn);
FRT_DECLARE_REAL_TYPED(g_pointer_bit_trylock, BitBoolFn);
FRT_DECLARE_REAL_TYPED(g_pointer_bit_unlock, BitFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_new, void* (*)());
FRT_DECLARE_REAL_TYPED(g_async_queue_new_full, void* (*)(GDestroyNotify));
FRT_DECLARE_REAL_TYPED(g_async_queue_lock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_unref_and_unlock, ObjFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_push, void (*)(void*, gpointer));
FRT_DECLARE_REAL_TYPED(g_async_queue_push_unlocked, void (*)(void*, gpointer));
FRT_DECLARE_REAL_TYPED(g_async_queue_push_front, void (*)(void*, gpointer));
FRT_DECLARE_REAL_TYPED(g_async_queue_push_front_unlocked, void (*)(void*, gpointer));
using PushSortedFn = void (*)(void*, gpointer, GCompareDataFunc, gpointer);
FRT_DECLARE_REAL_TYPED(g_async_queue_push_sorted, PushSortedFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_push_sorted_unlocked, PushSortedFn);
using SortFn = void (*)(void*, GCompareDataFunc, gpointer);
FRT_DECLARE_REAL_TYPED(g_async_queue_sort, SortFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_sort_unlocked, SortFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_remove, gboolean (*)(void*, gpointer));
FRT_DECLARE_REAL_TYPED(g_async_queue_remove_unlocked, gboolean (*)(void*, gpointer));
using PopFn = gpointer (*)(void*);
FRT_DECLARE_REAL_TYPED(g_async_queue_pop, PopFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_pop_unlocked, PopFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_try_pop, PopFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_try_pop_unlocked, PopFn);
using TimeoutPopFn = gpointer (*)(void*, unsigned long);
FRT_DECLARE_REAL_TYPED(g_async_queue_timeout_pop, TimeoutPopFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_timeout_pop_unlocked, TimeoutPopFn);
using TimedPopFn = gpointer (*)(void*, void*);
FRT_DECLARE_REAL_TYPED(g_async_queue_timed_pop, TimedPopFn);
FRT_DECLARE_REAL_TYPED(g_async_queue_timed_pop_unlocked, TimedPopFn);
FRT_DECLARE_REAL_TYPED(g_thread_pool_new, void* (*)(GFunc, gpointer, int, gboolean, void**));
FRT_DECLARE_REAL_TYPED(g_thread_pool_new_full,
                       void* (*)(GFunc, gpointer, GDestroyNotify, int, gboolean, void**));
FRT_DECLARE_REAL_TYPED(g_thread_pool_push, gboolean (*)(void*, gpointer, void**));
FRT_DECLARE_REAL_TYPED(g_thread_pool_free, void (*)(void*, gboolean, gboolean));
FRT_DECLARE_REAL_TYPED(g_thread_new, void* (*)(const char*, GThreadFunc, gpointer));
FRT_DECLARE_REAL_TYPED(g_thread_try_new, void* (*)(const char*, GThreadFunc, gpointer, void**));

// --- locks ------------------------------------------------------------------------------------

// Accesses made while the real call runs are not the program's (as pthread_create's, whose
// guard is released around the real call too), and with `above` the pthread interceptors the
// call reaches pass through: the operation is modelled on the GLib object (GRecMutex, GRWLock;
// libglib allocates their pthread object and publishes it with an atomic of its own, which
// would make pthread_*_init's write of it race with its first use in another thread). A signal
// handler that runs meanwhile lifts both (rt_signals.cpp).
class InLibrary {
  public:
    InLibrary(ThreadState* t, bool above) : t_(t), above_(above) {
        ++t_->ignore_reads_depth;
        ++t_->ignore_writes_depth;
        t_->ignore_access_kinds = fmt::kRead | fmt::kWrite;
        if (above_) ++t_->sync_modelled_above;
    }
    ~InLibrary() {
        --t_->ignore_reads_depth;
        --t_->ignore_writes_depth;
        t_->ignore_access_kinds = static_cast<u8>((t_->ignore_reads_depth ? fmt::kRead : 0) |
                                                  (t_->ignore_writes_depth ? fmt::kWrite : 0));
        if (above_) --t_->sync_modelled_above;
    }
    InLibrary(const InLibrary&) = delete;
    InLibrary& operator=(const InLibrary&) = delete;

  private:
    ThreadState* t_;
    bool above_;
};

// The real call of a lock operation, outside the runtime (`above`: see InLibrary).
template <class Op> auto run_real(InterceptorScope& scope, bool above, Op&& op) {
    return scope.outside([&] {
        if (!above) return op();
        InLibrary in(scope.thread(), true);
        return op();
    });
}

// A lock operation: op() runs the real one and tells whether the lock is held now; the Acquire
// follows it (the use of the object, an atomic read, precedes it: rt_interceptors.cpp). A write
// lock of a rwlock also acquires its read unlocks (`readers`).
template <class Op>
gboolean acquire_after(u8 cls, const void* obj, const void* used, u64 pc, bool above, Op&& op,
                       bool readers = false) {
    InterceptorScope scope;
    if (!scope) return op();
    ThreadState* t = scope.thread();
    sync_object_used(t, pc, used);
    const u64 c0 = sync_op_begins(t);
    const gboolean held = run_real(scope, above, op);
    if (held) {
        acquired(t, cls, obj, c0, pc);
        if (readers) acquired(t, fmt::kObjRwLockReaders, obj, c0, pc);
    }
    return held;
}

// An unlock: its counter is taken while the lock is still held, the Release written after.
// `chain`: a read unlock, Acquire + Release of the read unlocks (rt_interceptors.cpp).
template <class Op>
void release_before(u8 cls, const void* obj, const void* used, u64 pc, bool above, Op&& op,
                    bool chain = false) {
    InterceptorScope scope;
    if (!scope) {
        op();
        return;
    }
    ThreadState* t = scope.thread();
    sync_object_used(t, pc, used);
    const u64 c0 = sync_op_begins(t);
    const ReleaseTicket ticket = release_ticket(cls, obj, chain);
    run_real(scope, above, [&] {
        op();
        return 0;
    });
    released(t, cls, obj, ticket, chain, c0, pc);
}

// A bit lock's object: one per (word, bit).
const void* bit_lock(volatile void* address, int bit) {
    return reinterpret_cast<const void*>((reinterpret_cast<u64>(address) << 6) |
                                         (static_cast<u64>(bit) & 63));
}

} // namespace

// --- GMutex -------------------------------------------------------------------------------------

FRT_EXPORT void g_mutex_init(void* m) {
    auto real = REAL(g_mutex_init);
    sync_object_written(FRT_CALLER(), m);
    if (real != nullptr) real(m);
    lock_started(fmt::kObjMutex, m);
}
FRT_EXPORT void g_mutex_clear(void* m) {
    auto real = REAL(g_mutex_clear);
    sync_object_written(FRT_CALLER(), m);
    if (real != nullptr) real(m);
}
FRT_EXPORT void g_mutex_lock(void* m) {
    auto real = REAL(g_mutex_lock);
    if (real == nullptr) return;
    acquire_after(fmt::kObjMutex, m, m, FRT_CALLER(), false, [&] {
        real(m);
        return 1;
    });
}
FRT_EXPORT gboolean g_mutex_trylock(void* m) {
    auto real = REAL(g_mutex_trylock);
    if (real == nullptr) return 0;
    return acquire_after(fmt::kObjMutex, m, m, FRT_CALLER(), false, [&] { return real(m); });
}
FRT_EXPORT void g_mutex_unlock(void* m) {
    auto real = REAL(g_mutex_unlock);
    if (real == nullptr) return;
    release_before(fmt::kObjMutex, m, m, FRT_CALLER(), false, [&] { real(m); });
}

// --- GRecMutex, GRWLock: on the GLib object, libglib's pthread object passed through ----------

namespace {
// init and clear: writes of the object; the real call's pthread_*_init / destroy pass through.
template <class Real> void lifetime_op(void* l, u64 pc, bool starts, bool rwlock, Real real) {
    sync_object_written(pc, l);
    if (real == nullptr) return;
    if (InterceptorScope scope; scope)
        run_real(scope, true, [&] {
            real(l);
            return 0;
        });
    else
        real(l);
    if (!starts) return;
    lock_started(rwlock ? fmt::kObjRwLock : fmt::kObjMutex, l);
    if (rwlock) lock_started(fmt::kObjRwLockReaders, l);
}
} // namespace

FRT_EXPORT void g_rec_mutex_init(void* l) {
    lifetime_op(l, FRT_CALLER(), true, false, REAL(g_rec_mutex_init));
}
FRT_EXPORT void g_rec_mutex_clear(void* l) {
    lifetime_op(l, FRT_CALLER(), false, false, REAL(g_rec_mutex_clear));
}
FRT_EXPORT void g_rec_mutex_lock(void* l) {
    auto real = REAL(g_rec_mutex_lock);
    if (real == nullptr) return;
    acquire_after(fmt::kObjMutex, l, l, FRT_CALLER(), true, [&] {
        real(l);
        return 1;
    });
}
FRT_EXPORT gboolean g_rec_mutex_trylock(void* l) {
    auto real = REAL(g_rec_mutex_trylock);
    if (real == nullptr) return 0;
    return acquire_after(fmt::kObjMutex, l, l, FRT_CALLER(), true, [&] { return real(l); });
}
FRT_EXPORT void g_rec_mutex_unlock(void* l) {
    auto real = REAL(g_rec_mutex_unlock);
    if (real == nullptr) return;
    release_before(fmt::kObjMutex, l, l, FRT_CALLER(), true, [&] { real(l); });
}

// GRWLock as rt_interceptors.cpp models pthread_rwlock_t: kObjRwLock and its read unlocks.
FRT_EXPORT void g_rw_lock_init(void* l) {
    lifetime_op(l, FRT_CALLER(), true, true, REAL(g_rw_lock_init));
}
FRT_EXPORT void g_rw_lock_clear(void* l) {
    lifetime_op(l, FRT_CALLER(), false, true, REAL(g_rw_lock_clear));
}
FRT_EXPORT void g_rw_lock_writer_lock(void* l) {
    auto real = REAL(g_rw_lock_writer_lock);
    if (real == nullptr) return;
    acquire_after(
        fmt::kObjRwLock, l, l, FRT_CALLER(), true,
        [&] {
            real(l);
            return 1;
        },
        true);
}
FRT_EXPORT gboolean g_rw_lock_writer_trylock(void* l) {
    auto real = REAL(g_rw_lock_writer_trylock);
    if (real == nullptr) return 0;
    return acquire_after(
        fmt::kObjRwLock, l, l, FRT_CALLER(), true, [&] { return real(l); }, true);
}
FRT_EXPORT void g_rw_lock_writer_unlock(void* l) {
    auto real = REAL(g_rw_lock_writer_unlock);
    if (real == nullptr) return;
    release_before(fmt::kObjRwLock, l, l, FRT_CALLER(), true, [&] { real(l); });
}
FRT_EXPORT void g_rw_lock_reader_lock(void* l) {
    auto real = REAL(g_rw_lock_reader_lock);
    if (real == nullptr) return;
    acquire_after(fmt::kObjRwLock, l, l, FRT_CALLER(), true, [&] {
        real(l);
        return 1;
    });
}
FRT_EXPORT gboolean g_rw_lock_reader_trylock(void* l) {
    auto real = REAL(g_rw_lock_reader_trylock);
    if (real == nullptr) return 0;
    return acquire_after(fmt::kObjRwLock, l, l, FRT_CALLER(), true, [&] { return real(l); });
}
FRT_EXPORT void g_rw_lock_reader_unlock(void* l) {
    auto real = REAL(g_rw_lock_reader_unlock);
    if (real == nullptr) return;
    release_before(
        fmt::kObjRwLockReaders, l, l, FRT_CALLER(), true, [&] { real(l); }, true);
}

// --- GCond --------------------------------------------------------------------------------------

namespace {
template <class Op> auto cond_wait(void* c, void* m, u64 pc, Op&& op) {
    InterceptorScope scope;
    if (!scope) return op();
    ThreadState* t = scope.thread();
    cond_wait_began(t, c, m, pc);
    const auto r = scope.outside(op);
    // it returns with the mutex held, also on a timeout: CondWait, then the Acquire of it
    cond_wait_ended(t, c, m, pc);
    return r;
}

template <class Real> void cond_signal(void* c, u64 pc, Real real) {
    InterceptorScope scope;
    if (!scope) {
        real(c);
        return;
    }
    cond_signal_recorded(scope.thread(), c, pc);
    scope.outside([&] { real(c); });
}
} // namespace

FRT_EXPORT void g_cond_init(void* c) {
    auto real = REAL(g_cond_init);
    sync_object_written(FRT_CALLER(), c);
    if (real != nullptr) real(c);
}
FRT_EXPORT void g_cond_clear(void* c) {
    auto real = REAL(g_cond_clear);
    sync_object_written(FRT_CALLER(), c);
    if (real != nullptr) real(c);
}
FRT_EXPORT void g_cond_wait(void* c, void* m) {
    auto real = REAL(g_cond_wait);
    if (real == nullptr) return;
    cond_wait(c, m, FRT_CALLER(), [&] {
        real(c, m);
        return 0;
    });
}
FRT_EXPORT gboolean g_cond_wait_until(void* c, void* m, long end_time) {
    auto real = REAL(g_cond_wait_until);
    if (real == nullptr) return 0;
    return cond_wait(c, m, FRT_CALLER(), [&] { return real(c, m, end_time); });
}
FRT_EXPORT void g_cond_signal(void* c) {
    if (auto real = REAL(g_cond_signal)) cond_signal(c, FRT_CALLER(), real);
}
FRT_EXPORT void g_cond_broadcast(void* c) {
    if (auto real = REAL(g_cond_broadcast)) cond_signal(c, FRT_CALLER(), real);
}

// --- one-time initialization ------------------------------------------------------------------

namespace {
// The release store that publishes `location` (libglib's follows at once), and the acquire load
// of a call that found it published.
constexpr AtomicEffect kPublish{false, true, true};
constexpr AtomicEffect kFoundPublished{true, false, false};
} // namespace

FRT_EXPORT gboolean g_once_init_enter(volatile void* location) {
    auto real = REAL(g_once_init_enter);
    if (real == nullptr) return 0;
    const gboolean r = real(location);
    if (!r)
        library_atomic_op(const_cast<const void*>(location), kFoundPublished, FRT_CALLER(), [] {});
    return r;
}
FRT_EXPORT void g_once_init_leave(volatile void* location, unsigned long result) {
    auto real = REAL(g_once_init_leave);
    if (real == nullptr) return;
    library_atomic_op(const_cast<const void*>(location), kPublish, FRT_CALLER(), [] {});
    real(location, result);
}
// GLib 2.80 and later (the pointer variants): the same.
FRT_EXPORT gboolean g_once_init_enter_pointer(void* location) {
    auto real = REAL(g_once_init_enter_pointer);
    if (real == nullptr) return 0;
    const gboolean r = real(location);
    if (!r) library_atomic_op(location, kFoundPublished, FRT_CALLER(), [] {});
    return r;
}
FRT_EXPORT void g_once_init_leave_pointer(void* location, gpointer result) {
    auto real = REAL(g_once_init_leave_pointer);
    if (real == nullptr) return;
    library_atomic_op(location, kPublish, FRT_CALLER(), [] {});
    real(location, result);
}

namespace {
struct OnceImplFrame {
    GThreadFunc func;
    gpointer arg;
    void* once; // GOnce: its status (an int) first
    u64 pc;
    bool ran;
};
// g_once_impl runs the function in the calling thread, with our frame as its argument.
gpointer once_impl_trampoline(gpointer frame) {
    auto* f = static_cast<OnceImplFrame*>(frame);
    const gpointer r = f->func(f->arg);
    f->ran = true;
    library_atomic_op(f->once, kPublish, f->pc, [] {});
    return r;
}
} // namespace

FRT_EXPORT gpointer g_once_impl(void* once, GThreadFunc func, gpointer arg) {
    auto real = REAL(g_once_impl);
    if (real == nullptr) return nullptr;
    OnceImplFrame f{func, arg, once, FRT_CALLER(), false};
    const gpointer r = real(once, once_impl_trampoline, &f);
    if (!f.ran) library_atomic_op(once, kFoundPublished, f.pc, [] {});
    return r;
}

// --- bit locks ----------------------------------------------------------------------------------

namespace {
template <class Real> void bit_lock_op(volatile void* address, int bit, u64 pc, Real real) {
    acquire_after(fmt::kObjGLibBitLock, bit_lock(address, bit), const_cast<const void*>(address),
                  pc, false, [&] {
                      real(address, bit);
                      return 1;
                  });
}
template <class Real> gboolean bit_trylock_op(volatile void* address, int bit, u64 pc, Real real) {
    return acquire_after(fmt::kObjGLibBitLock, bit_lock(address, bit),
                         const_cast<const void*>(address), pc, false,
                         [&] { return real(address, bit); });
}
template <class Real> void bit_unlock_op(volatile void* address, int bit, u64 pc, Real real) {
    release_before(fmt::kObjGLibBitLock, bit_lock(address, bit), const_cast<const void*>(address),
                   pc, false, [&] { real(address, bit); });
}
} // namespace

FRT_EXPORT void g_bit_lock(volatile void* address, int bit) {
    if (auto real = REAL(g_bit_lock)) bit_lock_op(address, bit, FRT_CALLER(), real);
}
FRT_EXPORT gboolean g_bit_trylock(volatile void* address, int bit) {
    auto real = REAL(g_bit_trylock);
    return real != nullptr ? bit_trylock_op(address, bit, FRT_CALLER(), real) : 0;
}
FRT_EXPORT void g_bit_unlock(volatile void* address, int bit) {
    if (auto real = REAL(g_bit_unlock)) bit_unlock_op(address, bit, FRT_CALLER(), real);
}
FRT_EXPORT void g_pointer_bit_lock(volatile void* address, int bit) {
    if (auto real = REAL(g_pointer_bit_lock)) bit_lock_op(address, bit, FRT_CALLER(), real);
}
FRT_EXPORT gboolean g_pointer_bit_trylock(volatile void* address, int bit) {
    auto real = REAL(g_pointer_bit_trylock);
    return real != nullptr ? bit_trylock_op(address, bit, FRT_CALLER(), real) : 0;
}
FRT_EXPORT void g_pointer_bit_unlock(volatile void* address, int bit) {
    if (auto real = REAL(g_pointer_bit_unlock)) bit_unlock_op(address, bit, FRT_CALLER(), real);
}

// --- GAsyncQueue --------------------------------------------------------------------------------

namespace {
// A locked queue operation, run as libglib runs it: the real lock, the _unlocked operation
// (`inner`; it may call the program's compare function, in the critical section), the real
// unlock; an operation that may wait (a pop) releases the mutex in the wait, so its Acquire
// follows it. `whole` is libglib's locked function: when the parts are missing, or untraced.
template <class Whole, class Inner>
auto queue_locked(void* q, u64 pc, bool waits, Whole&& whole, Inner&& inner) {
    auto lock = REAL(g_async_queue_lock);
    auto unlock = REAL(g_async_queue_unlock);
    InterceptorScope scope;
    if (!scope || q == nullptr || lock == nullptr || unlock == nullptr) return whole();
    ThreadState* t = scope.thread();
    close_computation(t, now());
    scope.outside([&] { lock(q); });
    if (!waits) acquire_now(t, fmt::kObjMutex, q, pc);
    const auto r = scope.outside(inner);
    if (waits) acquire_now(t, fmt::kObjMutex, q, pc);
    release_now(t, fmt::kObjMutex, q, pc, false);
    scope.outside([&] { unlock(q); });
    return r;
}

// An _unlocked pop under the program's g_async_queue_lock: a wait in it releases the mutex.
template <class Inner> gpointer queue_unlocked_wait(void* q, u64 pc, Inner&& inner) {
    InterceptorScope scope;
    if (!scope || q == nullptr) return inner();
    ThreadState* t = scope.thread();
    release_now(t, fmt::kObjMutex, q, pc, false);
    const gpointer r = scope.outside(inner);
    acquire_now(t, fmt::kObjMutex, q, pc);
    return r;
}
} // namespace

FRT_EXPORT void* g_async_queue_new() {
    auto real = REAL(g_async_queue_new);
    if (real == nullptr) return nullptr;
    void* q = real();
    if (q != nullptr) lock_started(fmt::kObjMutex, q);
    return q;
}
FRT_EXPORT void* g_async_queue_new_full(GDestroyNotify item_free) {
    auto real = REAL(g_async_queue_new_full);
    if (real == nullptr) return nullptr;
    void* q = real(item_free);
    if (q != nullptr) lock_started(fmt::kObjMutex, q);
    return q;
}
FRT_EXPORT void g_async_queue_lock(void* q) {
    auto real = REAL(g_async_queue_lock);
    if (real == nullptr) return;
    InterceptorScope scope;
    if (!scope || q == nullptr) {
        real(q);
        return;
    }
    close_computation(scope.thread(), now());
    scope.outside([&] { real(q); });
    acquire_now(scope.thread(), fmt::kObjMutex, q, FRT_CALLER());
}
namespace {
template <class Real> void queue_unlock(void* q, u64 pc, Real real) {
    InterceptorScope scope;
    if (!scope || q == nullptr) {
        real(q);
        return;
    }
    release_now(scope.thread(), fmt::kObjMutex, q, pc, false);
    scope.outside([&] { real(q); });
}
} // namespace
FRT_EXPORT void g_async_queue_unlock(void* q) {
    if (auto real = REAL(g_async_queue_unlock)) queue_unlock(q, FRT_CALLER(), real);
}
FRT_EXPORT void g_async_queue_unref_and_unlock(void* q) {
    if (auto real = REAL(g_async_queue_unref_and_unlock)) queue_unlock(q, FRT_CALLER(), real);
}

// The locked operations whose _unlocked part exists: the model; otherwise libglib's as it is.
#define FRT_GLIB_QUEUE_VOID(name, waits, params, args)                                             \
    FRT_EXPORT void name params {                                                                  \
        auto real = REAL(name);                                                                    \
        auto inner = REAL(name##_unlocked);                                                        \
        if (real == nullptr) return;                                                               \
        if (inner == nullptr) return real args;                                                    \
        queue_locked(                                                                              \
            q, FRT_CALLER(), waits,                                                                \
            [&] {                                                                                  \
                real args;                                                                         \
                return 0;                                                                          \
            },                                                                                     \
            [&] {                                                                                  \
                inner args;                                                                        \
                return 0;                                                                          \
            });                                                                                    \
    }
#define FRT_GLIB_QUEUE_VALUE(type, name, waits, params, args)                                      \
    FRT_EXPORT type name params {                                                                  \
        auto real = REAL(name);                                                                    \
        auto inner = REAL(name##_unlocked);                                                        \
        if (real == nullptr) return type{};                                                        \
        if (inner == nullptr) return real args;                                                    \
        return queue_locked(                                                                       \
            q, FRT_CALLER(), waits, [&] { return real args; }, [&] { return inner args; });        \
    }
FRT_GLIB_QUEUE_VOID(g_async_queue_push, false, (void* q, gpointer data), (q, data))
FRT_GLIB_QUEUE_VOID(g_async_queue_push_front, false, (void* q, gpointer data), (q, data))
FRT_GLIB_QUEUE_VOID(g_async_queue_push_sorted, false,
                    (void* q, gpointer data, GCompareDataFunc func, gpointer user_data),
                    (q, data, func, user_data))
FRT_GLIB_QUEUE_VOID(g_async_queue_sort, false, (void* q, GCompareDataFunc func, gpointer user_data),
                    (q, func, user_data))
FRT_GLIB_QUEUE_VALUE(gboolean, g_async_queue_remove, false, (void* q, gpointer item), (q, item))
FRT_GLIB_QUEUE_VALUE(gpointer, g_async_queue_pop, true, (void* q), (q))
FRT_GLIB_QUEUE_VALUE(gpointer, g_async_queue_try_pop, false, (void* q), (q))
FRT_GLIB_QUEUE_VALUE(gpointer, g_async_queue_timeout_pop, true, (void* q, unsigned long timeout),
                     (q, timeout))
FRT_GLIB_QUEUE_VALUE(gpointer, g_async_queue_timed_pop, true, (void* q, void* end_time),
                     (q, end_time))
#undef FRT_GLIB_QUEUE_VOID
#undef FRT_GLIB_QUEUE_VALUE

FRT_EXPORT gpointer g_async_queue_pop_unlocked(void* q) {
    auto real = REAL(g_async_queue_pop_unlocked);
    if (real == nullptr) return nullptr;
    return queue_unlocked_wait(q, FRT_CALLER(), [&] { return real(q); });
}
FRT_EXPORT gpointer g_async_queue_timeout_pop_unlocked(void* q, unsigned long timeout) {
    auto real = REAL(g_async_queue_timeout_pop_unlocked);
    if (real == nullptr) return nullptr;
    return queue_unlocked_wait(q, FRT_CALLER(), [&] { return real(q, timeout); });
}
FRT_EXPORT gpointer g_async_queue_timed_pop_unlocked(void* q, void* end_time) {
    auto real = REAL(g_async_queue_timed_pop_unlocked);
    if (real == nullptr) return nullptr;
    return queue_unlocked_wait(q, FRT_CALLER(), [&] { return real(q, end_time); });
}

// --- GThreadPool --------------------------------------------------------------------------------

namespace {
// The user data of a wrapped pool: the program's function and data. Records come from mmap'd
// chunks and go back to a free list when the pool is freed with wait_ (its tasks all ended);
// `generation` makes the ids of a reused record new. A pool freed without waiting keeps its
// record (its tasks may still run).
struct PoolRecord {
    GFunc func;
    gpointer user_data;
    u64 generation;
    PoolRecord* next_free;
};
std::atomic<u32> g_pool_records_lock{0};
PoolRecord* g_pool_records_free = nullptr;
PoolRecord* g_pool_chunk = nullptr;
u32 g_pool_chunk_left = 0;
constexpr u32 kPoolChunk = 64u << 10;

PoolRecord* new_pool_record() {
    spin_lock(g_pool_records_lock);
    PoolRecord* r = g_pool_records_free;
    if (r != nullptr) {
        g_pool_records_free = r->next_free;
    } else {
        if (g_pool_chunk_left == 0) {
            g_pool_chunk = static_cast<PoolRecord*>(map_anonymous(kPoolChunk));
            g_pool_chunk_left = g_pool_chunk != nullptr ? kPoolChunk / sizeof(PoolRecord) : 0;
        }
        if (g_pool_chunk_left != 0) {
            r = g_pool_chunk++;
            --g_pool_chunk_left;
        }
    }
    spin_unlock(g_pool_records_lock);
    return r;
}
void free_pool_record(PoolRecord* r) {
    spin_lock(g_pool_records_lock);
    ++r->generation;
    r->next_free = g_pool_records_free;
    g_pool_records_free = r;
    spin_unlock(g_pool_records_lock);
}

// Ids of 56 bits: the object table's key puts the class above them (rt_sync_objects.cpp).
u64 mix(u64 h, u64 v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return (h * 0xBF58476D1CE4E5B9ull) >> 8;
}
const void* pool_done(const PoolRecord* r) {
    return reinterpret_cast<const void*>(mix(reinterpret_cast<u64>(r), r->generation));
}
const void* pool_task(const PoolRecord* r, gpointer data) {
    return reinterpret_cast<const void*>(
        mix(mix(reinterpret_cast<u64>(r), r->generation), reinterpret_cast<u64>(data)));
}

// Every task of a wrapped pool runs here, on a worker thread of libglib's.
void pool_trampoline(gpointer data, gpointer record) {
    auto* r = static_cast<PoolRecord*>(record);
    const u64 pc = reinterpret_cast<u64>(r->func);
    if (InterceptorScope scope; scope)
        acquire_now(scope.thread(), fmt::kObjGLibPoolTask, pool_task(r, data), pc);
    r->func(data, r->user_data);
    if (InterceptorScope scope; scope)
        release_now(scope.thread(), fmt::kObjGLibPoolDone, pool_done(r), pc, true);
}

// The record of a pool made by the wrapper (null: not wrapped).
PoolRecord* pool_record(void* pool) {
    if (pool == nullptr) return nullptr;
    const auto* p = static_cast<const PublicThreadPool*>(pool);
    return p->func == pool_trampoline ? static_cast<PoolRecord*>(p->user_data) : nullptr;
}

template <class Real> void* new_pool(GFunc func, gpointer user_data, Real real) {
    PoolRecord* r =
        func != nullptr && g_state.load() == RtState::Ready ? new_pool_record() : nullptr;
    if (r == nullptr) return real(func, user_data);
    r->func = func;
    r->user_data = user_data;
    void* pool = real(pool_trampoline, r);
    if (pool == nullptr) free_pool_record(r);
    return pool;
}
} // namespace

FRT_EXPORT void* g_thread_pool_new(GFunc func, gpointer user_data, int max_threads,
                                   gboolean exclusive, void** error) {
    auto real = REAL(g_thread_pool_new);
    if (real == nullptr) return nullptr;
    return new_pool(func, user_data,
                    [&](GFunc f, gpointer d) { return real(f, d, max_threads, exclusive, error); });
}
FRT_EXPORT void* g_thread_pool_new_full(GFunc func, gpointer user_data, GDestroyNotify item_free,
                                        int max_threads, gboolean exclusive, void** error) {
    auto real = REAL(g_thread_pool_new_full);
    if (real == nullptr) return nullptr;
    return new_pool(func, user_data, [&](GFunc f, gpointer d) {
        return real(f, d, item_free, max_threads, exclusive, error);
    });
}
FRT_EXPORT gboolean g_thread_pool_push(void* pool, gpointer data, void** error) {
    auto real = REAL(g_thread_pool_push);
    if (real == nullptr) return 0;
    if (PoolRecord* r = pool_record(pool)) {
        // the same data pushed again merges: its tasks are ordered after every push of it
        if (InterceptorScope scope; scope)
            release_now(scope.thread(), fmt::kObjGLibPoolTask, pool_task(r, data), FRT_CALLER(),
                        true);
    }
    return real(pool, data, error);
}
FRT_EXPORT void g_thread_pool_free(void* pool, gboolean immediate, gboolean wait) {
    auto real = REAL(g_thread_pool_free);
    if (real == nullptr) return;
    PoolRecord* r = pool_record(pool);
    const u64 pc = FRT_CALLER();
    real(pool, immediate, wait);
    if (r == nullptr || !wait) return;
    if (InterceptorScope scope; scope)
        acquire_now(scope.thread(), fmt::kObjGLibPoolDone, pool_done(r), pc);
    free_pool_record(r);
}

// --- GThread ------------------------------------------------------------------------------------

namespace {
// libglib's pthread_create call records the creation at the program's call site.
template <class Op> void* created_at(u64 pc, Op&& op) {
    const u64 outer = tls_library_creation_pc;
    tls_library_creation_pc = pc;
    void* thread = op();
    tls_library_creation_pc = outer;
    return thread;
}
} // namespace

FRT_EXPORT void* g_thread_new(const char* name, GThreadFunc func, gpointer data) {
    auto real = REAL(g_thread_new);
    if (real == nullptr) return nullptr;
    return created_at(FRT_CALLER(), [&] { return real(name, func, data); });
}
FRT_EXPORT void* g_thread_try_new(const char* name, GThreadFunc func, gpointer data, void** error) {
    auto real = REAL(g_thread_try_new);
    if (real == nullptr) return nullptr;
    return created_at(FRT_CALLER(), [&] { return real(name, func, data, error); });
}
