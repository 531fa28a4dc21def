// The ordering of memory reuse (rt_freed_memory.hpp): a free or unmapping is a Release of its
// own object, an allocation or mapping acquires the frees of other processes whose bytes it
// got, found through the shadow of freed memory.
#include "rt_reuse_ordering.hpp"

#include <atomic>
#include <pthread.h>

#include "rt_freed_memory.hpp"
#include "rt_record.hpp"

namespace frt {

void record_free(ThreadState* t, u64 lo, u64 hi, u64 pc) {
    const u64 c0 = now();
    close_computation(t, c0);
    const FreeTag tag = new_free_tag(t->pid);
    if (tag == 0) return; // free ids exhausted: the reuse stays unordered
    // The Release is over when it starts (no clock read for its finish: one of the two clock
    // reads per free was a tenth of the allocator benchmark's cost).
    SyncRecord r{};
    r.op = firstrace::format::kOpRelease;
    r.cls = firstrace::format::kObjHeapBlock;
    r.object = lo;
    r.incarnation = free_tag_id(tag);
    r.clock_start = c0;
    r.clock_finish = c0;
    r.pc = pc;
    emit_sync(t, r);
    freed_memory_mark(lo, hi, tag);
}

namespace {
struct ReuseAcquirer {
    ThreadState* t;
    u64 lo, hi, pc;
    bool closed = false;
    static void visit(void* self, FreeTag tag) {
        auto* a = static_cast<ReuseAcquirer*>(self);
        const u64 c0 = now();
        if (!a->closed) close_computation(a->t, c0);
        a->closed = true;
        record(a->t, firstrace::format::kOpAcquire, firstrace::format::kObjHeapBlock,
               reinterpret_cast<const void*>(a->lo), 1, c0, a->pc, static_cast<i64>(a->hi - a->lo),
               free_tag_id(tag));
    }
};
} // namespace

void record_reuse(ThreadState* t, u64 lo, u64 hi, u64 pc) {
    ReuseAcquirer acquirer{t, lo, hi, pc};
    freed_memory_scan(lo, hi, t->pid, ReuseAcquirer::visit, &acquirer);
}

bool own_stack(u64& lo, u64& hi) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return false;
    void* addr = nullptr;
    size_t size = 0;
    const bool known = pthread_attr_getstack(&attr, &addr, &size) == 0 && size != 0;
    pthread_attr_destroy(&attr);
    lo = known ? reinterpret_cast<u64>(addr) : 0;
    hi = known ? lo + size : 0;
    return known;
}

namespace {
void record_lifetime_start(ThreadState* t, u8 cls, u64 lo, u64 hi, u64 pc) {
    const u64 c0 = now();
    close_computation(t, c0);
    record(t, firstrace::format::kOpOther, cls, reinterpret_cast<const void*>(lo), 0, c0, pc,
           static_cast<i64>(hi - lo));
}
} // namespace

void record_storage_reuse(ThreadState* t, u64 lo, u64 hi, u64 pc) {
    record_lifetime_start(t, firstrace::format::kObjThreadStorage, lo, hi, pc);
}

namespace {
// A ring of the last kDeadStacks blocks: a thread's end writes one slot (its hi first cleared,
// then lo, then hi: a reader that sees hi <= lo skips the slot being written), a mapping reads
// them all. Older ones are forgotten: a mapping over such a block is then no lifetime start
// (its earlier accesses may look racy with the mapping's), as before this ring.
constexpr u32 kDeadStacks = 1024;
std::atomic<u64> g_dead_lo[kDeadStacks], g_dead_hi[kDeadStacks];
std::atomic<u32> g_dead_next{0};
} // namespace

void stack_died(u64 lo, u64 hi) {
    if (hi <= lo) return;
    const u32 i = g_dead_next.fetch_add(1, std::memory_order_relaxed) % kDeadStacks;
    g_dead_hi[i].store(0, std::memory_order_relaxed);
    g_dead_lo[i].store(lo, std::memory_order_relaxed);
    g_dead_hi[i].store(hi, std::memory_order_release);
}

namespace {
bool overlaps_dead_stack(u64 lo, u64 hi) {
    const u32 n = g_dead_next.load(std::memory_order_relaxed);
    for (u32 i = 0; i < kDeadStacks && i < n; ++i) {
        const u64 dead_hi = g_dead_hi[i].load(std::memory_order_acquire);
        const u64 dead_lo = g_dead_lo[i].load(std::memory_order_relaxed);
        if (dead_lo < dead_hi && dead_lo < hi && lo < dead_hi) return true;
    }
    return false;
}
} // namespace

void record_mapping(ThreadState* t, u64 lo, u64 hi, u64 pc) {
    if (overlaps_dead_stack(lo, hi))
        record_lifetime_start(t, firstrace::format::kObjMapping, lo, hi, pc);
}

} // namespace frt
