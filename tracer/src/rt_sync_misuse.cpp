// Misuse of synchronization objects: rt_sync_misuse.hpp.
#include "rt_sync_misuse.hpp"

#include <sys/syscall.h>

#include "rt_record.hpp"
#include "rt_system.hpp"

namespace frt {

namespace fmt = firstrace::format;

namespace {
// The addresses of the barriers that threads are inside the real wait of, one slot per thread.
// A thread that finds no free slot is not known to a free, whose write of the barrier then
// stays (a race, as before).
constexpr u32 kWaitSlots = 64;
std::atomic<u64> g_wait_slots[kWaitSlots];
std::atomic<u32> g_waits_inside{0};

// How long a destroy waits, after the real one returned, for the departures of the round it
// waited for to be recorded (their threads have left the real wait by then: microseconds).
constexpr u64 kDepartureWaitNs = 2'000'000'000;
} // namespace

u32 barrier_wait_entered(u64 address) {
    for (u32 i = 0; i < kWaitSlots; ++i) {
        u64 expected = 0;
        if (g_wait_slots[i].load(std::memory_order_relaxed) == 0 &&
            g_wait_slots[i].compare_exchange_strong(expected, address, std::memory_order_acq_rel)) {
            g_waits_inside.fetch_add(1, std::memory_order_release);
            return i;
        }
    }
    return kNoSlot;
}

void barrier_wait_left(u32 slot) {
    if (slot >= kWaitSlots) return;
    g_wait_slots[slot].store(0, std::memory_order_release);
    g_waits_inside.fetch_sub(1, std::memory_order_release);
}

void barrier_waits_after_fork() {
    for (std::atomic<u64>& slot : g_wait_slots)
        slot.store(0, std::memory_order_relaxed);
    g_waits_inside.store(0, std::memory_order_relaxed);
}

void freed_range_written(ThreadState* t, u64 pc, u64 lo, u64 size) {
    if (g_waits_inside.load(std::memory_order_relaxed) == 0) {
        library_access(t, pc, reinterpret_cast<const void*>(lo), size, true);
        return;
    }
    // The barriers in [lo, lo + size) that threads are inside the wait of, in address order,
    // each once.
    u64 inside[kWaitSlots];
    u32 n = 0;
    for (std::atomic<u64>& slot : g_wait_slots) {
        const u64 a = slot.load(std::memory_order_acquire);
        if (a == 0 || a < lo || a - lo >= size) continue;
        u32 at = n;
        while (at > 0 && inside[at - 1] > a)
            --at;
        if (at > 0 && inside[at - 1] == a) continue;
        for (u32 k = n; k > at; --k)
            inside[k] = inside[k - 1];
        inside[at] = a;
        ++n;
    }
    u64 from = lo;
    const u64 end = lo + size;
    for (u32 k = 0; k < n; ++k) {
        const u64 a = inside[k];
        if (a > from) library_access(t, pc, reinterpret_cast<const void*>(from), a - from, true);
        emit_misuse(t, fmt::kMisuseFreeWaiters, fmt::kObjBarrier, a, pc);
        const u64 after = a + sizeof(pthread_barrier_t) < end ? a + sizeof(pthread_barrier_t) : end;
        if (after > from) from = after;
    }
    if (end > from) library_access(t, pc, reinterpret_cast<const void*>(from), end - from, true);
}

void barrier_departed(ThreadState* t, const void* b, ObjEntry* o, u32 incarnation, u64 episode,
                      u64 pc) {
    const u64 waited = o->last_release.load();
    if (waited == 0 || waited != barrier_round_key(incarnation, episode)) return;
    release_now(t, fmt::kObjBarrierExits, b, pc, true);
    o->counter2.fetch_add(1);
}

int barrier_destroy(InterceptorScope& scope, pthread_barrier_t* b, u64 pc,
                    int (*real)(pthread_barrier_t*)) {
    ThreadState* t = scope.thread();
    ObjEntry* o = g_state.load() == RtState::Ready ? find_object(fmt::kObjBarrier, b) : nullptr;
    bool in_progress = false;
    u64 arrived = 0; // the threads in the round: as many will leave before the destroy returns
    if (o != nullptr) {
        spin_lock(o->spin);
        in_progress = barrier_round_in_progress(o);
        if (in_progress) {
            const u64 count = static_cast<u64>(o->extra.load());
            const u64 episode = o->counter.load() / count;
            arrived = o->counter.load() % count;
            o->counter2.store(0);
            o->last_release.store(barrier_round_key(o->incarnation.load(), episode));
        }
        spin_unlock(o->spin);
    }
    if (!in_progress) {
        library_access(t, pc, b, 1, true);
        return real(b);
    }
    // Threads are blocked on it: a misuse, not a write of the barrier.
    sync_op_begins(t);
    emit_misuse(t, fmt::kMisuseDestroyWaiters, fmt::kObjBarrier, reinterpret_cast<u64>(b), pc);
    const int r = scope.outside([&] { return real(b); });
    // glibc returns once as many threads as had entered have left the wait; each records its
    // departure's release right after. Bounded: another C library may not wait.
    const u64 start = now();
    while (o->counter2.load() < arrived && now() - start < kDepartureWaitNs)
        system_call(SYS_sched_yield);
    o->last_release.store(0);
    acquire_now(t, fmt::kObjBarrierExits, b, pc);
    return r;
}

} // namespace frt
