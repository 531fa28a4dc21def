// The ordering of memory reuse (rt_freed_memory.hpp): a free or unmapping is a Release of its
// own object, an allocation or mapping acquires the frees of other processes whose bytes it
// got, found through the shadow of freed memory.
#include "rt_reuse_ordering.hpp"

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

void record_mapping(ThreadState* t, u64 lo, u64 hi, u64 pc) {
    record_lifetime_start(t, firstrace::format::kObjMapping, lo, hi, pc);
}

} // namespace frt
