// The index of freed heap memory (rt_freed_memory.hpp): disjoint byte ranges, each pointing at
// the free that last covered it. Nodes come from glibc's allocator directly (__libc_malloc):
// not the program's malloc (interposed), so nothing here is traced or re-enters the runtime.
#include "rt_freed_memory.hpp"

#include <pthread.h>
#include <sched.h>

#include <map>
#include <new>
#include <utility>

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
}

namespace frt {
namespace {

template <class T> struct LibcAllocator {
    using value_type = T;
    LibcAllocator() = default;
    template <class U> LibcAllocator(const LibcAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        // The runtime never throws: out of memory here ends the program as glibc would.
        void* p = __libc_malloc(n * sizeof(T));
        if (p == nullptr) __builtin_trap();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) noexcept { __libc_free(p); }
    template <class U> bool operator==(const LibcAllocator<U>&) const noexcept { return true; }
};

struct FreedRange {
    u64 hi;
    FreedBlock* block;
};
using RangeMap =
    std::map<u64, FreedRange, std::less<u64>, LibcAllocator<std::pair<const u64, FreedRange>>>;

// Shards by 1 MiB region: the blocks of one arena spread over several shards, and a block
// that crosses a region border is entered piece by piece.
constexpr unsigned kRegionBits = 20;
constexpr unsigned kShards = 64;

struct alignas(64) Shard {
    std::atomic<u32> lock{0};
    RangeMap* ranges = nullptr; // built on first use (no static constructor order to rely on)
};
Shard g_shards[kShards];
std::atomic<u32> g_next_id{1};

RangeMap& ranges_of(Shard& s) {
    if (s.ranges == nullptr) {
        void* p = __libc_malloc(sizeof(RangeMap));
        s.ranges = new (p) RangeMap();
    }
    return *s.ranges;
}

void unref(FreedBlock* b) {
    if (b->ranges.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        b->~FreedBlock();
        __libc_free(b);
    }
}

// Calls visit(block) for every range of `m` that overlaps [lo, hi), in address order, and cuts
// [lo, hi) out of it; stops before a range when visit returns false.
template <class Visit> void carve(RangeMap& m, u64 lo, u64 hi, Visit&& visit) {
    auto it = m.upper_bound(lo);
    if (it != m.begin()) {
        auto before = std::prev(it);
        if (before->second.hi > lo) it = before;
    }
    while (it != m.end() && it->first < hi) {
        const u64 s = it->first;
        const FreedRange r = it->second;
        if (!visit(r.block)) return;
        it = m.erase(it);
        if (s < lo) {
            r.block->ranges.fetch_add(1, std::memory_order_relaxed);
            m.emplace(s, FreedRange{lo, r.block});
        }
        if (r.hi > hi) {
            r.block->ranges.fetch_add(1, std::memory_order_relaxed);
            it = m.emplace(hi, FreedRange{r.hi, r.block}).first;
            ++it;
        }
        unref(r.block);
    }
}

// Calls f(shard, piece_lo, piece_hi) for each region piece of [lo, hi).
template <class F> void for_each_piece(u64 lo, u64 hi, F&& f) {
    for (u64 a = lo; a < hi;) {
        const u64 region_end = ((a >> kRegionBits) + 1) << kRegionBits;
        const u64 b = region_end < hi && region_end > a ? region_end : hi;
        if (!f(g_shards[(a >> kRegionBits) % kShards], a, b)) return;
        a = b;
    }
}

// A shard is held for a map operation only, but a holder preempted on a busy machine would
// make every other thread spin for its whole time slice: spin briefly, then yield.
void shard_lock(std::atomic<u32>& l) {
    for (u32 spins = 0; l.exchange(1, std::memory_order_acquire) != 0;) {
        while (l.load(std::memory_order_relaxed) != 0) {
            if (++spins < 64)
                __builtin_ia32_pause();
            else
                sched_yield();
        }
    }
}

// fork() while another thread holds a shard lock would leave it held in the child forever:
// every lock is taken around fork (the order is the shards' order, as everywhere).
void lock_all() {
    for (Shard& s : g_shards)
        shard_lock(s.lock);
}
void unlock_all() {
    for (Shard& s : g_shards)
        spin_unlock(s.lock);
}
__attribute__((constructor)) void register_fork_handlers() {
    pthread_atfork(lock_all, unlock_all, unlock_all);
}

} // namespace

FreedBlock* new_freed_block(u64 address, u32 pid) {
    void* p = __libc_malloc(sizeof(FreedBlock));
    if (p == nullptr) return nullptr;
    auto* b = new (p) FreedBlock{};
    b->address = address;
    b->id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    b->pid = pid;
    b->next_counter.store(1, std::memory_order_relaxed);
    b->ranges.store(1, std::memory_order_relaxed); // the caller's, dropped at the end of insert
    return b;
}

void freed_memory_insert(u64 lo, u64 hi, FreedBlock* block) {
    for_each_piece(lo, hi, [&](Shard& s, u64 a, u64 b) {
        shard_lock(s.lock);
        RangeMap& m = ranges_of(s);
        carve(m, a, b, [](FreedBlock*) { return true; });
        block->ranges.fetch_add(1, std::memory_order_relaxed);
        m.emplace(a, FreedRange{b, block});
        spin_unlock(s.lock);
        return true;
    });
    unref(block);
}

u32 freed_memory_take(u64 lo, u64 hi, u32 pid, FreedAcquire* out, u32 capacity) {
    u32 n = 0;
    for_each_piece(lo, hi, [&](Shard& s, u64 a, u64 b) {
        shard_lock(s.lock);
        if (s.ranges != nullptr) {
            carve(*s.ranges, a, b, [&](FreedBlock* f) {
                if (f->pid == pid) return true;
                for (u32 i = 0; i < n; ++i)
                    if (out[i].id == f->id && out[i].address == f->address) return true;
                if (n == capacity) return false;
                out[n++] = {f->address, f->id,
                            f->next_counter.fetch_add(1, std::memory_order_relaxed)};
                return true;
            });
        }
        spin_unlock(s.lock);
        return n < capacity;
    });
    return n;
}

} // namespace frt
