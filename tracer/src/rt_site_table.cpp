// The site table of the open computation event (thesis ch. 3: a computation event is the
// stretch of a process between two synchronization events; its READ and WRITE sets are kept
// here per access site, as sorted merged ranges and an open strided run: rt_site_table.hpp).
// The fast path (rt_internal.hpp: on_access) only extends a site's run; everything else comes
// here. Per-thread
// memory only: no lock, no malloc. A full table or arena splits the event (any split of a
// computation event is legal).
#include <cstring>

#include "rt_record_buffer.hpp"

namespace frt {

void reset_event(ThreadState* t, u64 clock) {
    t->nsites = 0;
    t->arena_used = 0;
    t->last_key = 0;
    t->last_site = nullptr;
    if (++t->gen == 0) { // wrapped: clear the table once every 2^32 events
        std::memset(static_cast<void*>(t->table), 0, kTableSize * sizeof(Site));
        t->gen = 1;
    }
    t->event_start = clock;
    t->event_alone = alone();
}

namespace {

// The stack depot id of the current calling context, writing a kRecStack record the first time
// this stream sees the stack (the innermost g_stack_depth frames). 0: no stack (depth 0, the
// depot is full, or the record could not be written).
u32 intern_stack(ThreadState* t) {
    const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
    if (d == 0 || g_stack_depth == 0) return 0;
    const u64 h = t->stack_hash;
    u32 i = static_cast<u32>((h * 0x9E3779B97F4A7C15ull) >> (64 - kDepotBits));
    for (u32 probe = 0; probe < kDepotSize; ++probe, i = (i + 1) & (kDepotSize - 1)) {
        DepotSlot& slot = t->depot[i];
        if (slot.gen == t->depot_gen) {
            if (slot.hash == h) return slot.id;
            continue;
        }
        if (t->depot_ids >= kDepotSize / 4 * 3) return 0; // full enough: stop interning
        if (!begin_record(t)) return 0;
        const u32 id = ++t->depot_ids;
        const u32 k = d < g_stack_depth ? d : g_stack_depth;
        put_byte(t, firstrace::format::kRecStack);
        put(t, id);
        put_context(t, t->stack + (d - k), k);
        end_record(t);
        slot.hash = h;
        slot.id = id;
        slot.gen = t->depot_gen;
        return id;
    }
    return 0;
}

// `count` T's from the event's arena (16-byte units: ranges and granules), or nullptr.
template <class T> T* arena_take(ThreadState* t, u32 count) {
    static_assert(sizeof(T) % 16 == 0 && alignof(T) <= 16);
    const std::size_t bytes = std::size_t{count} * sizeof(T);
    if (t->arena_used + bytes > kArenaSize) return nullptr;
    T* r = reinterpret_cast<T*>(t->arena + t->arena_used);
    t->arena_used += bytes;
    return r;
}

Site* find_site(ThreadState* t, u64 key, u64 pc, u8 flags) {
    u32 i = slot_index(key);
    for (;; i = (i + 1) & (kTableSize - 1)) {
        Site& s = t->table[i];
        if (s.gen != t->gen) {
            if (t->nsites >= kMaxSites) return nullptr;
            Range* r = arena_take<Range>(t, 4);
            if (r == nullptr) return nullptr;
            if (t->nsites == 0) { // first access of the event: snapshot its calling context
                const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
                const u32 k = d < kMaxContext ? d : kMaxContext;
                std::memcpy(t->ctx, t->stack + (d - k), k * sizeof(u64));
                t->ctx_depth = k;
            }
            s.key = key;
            s.gen = t->gen;
            t->order[t->nsites++] = i;
            s.pc = pc;
            s.stack = intern_stack(t);
            s.flags = flags;
            s.bytes.reset(r, 4);
            return &s;
        }
        if (s.key == key) return &s;
    }
}

// The arena as SiteAccesses sees it.
struct EventArena {
    ThreadState* t;
    template <class T> T* take(u32 count) { return arena_take<T>(t, count); }
};

// One site's ranges, as kRecCompute wants them: { lo - previous hi, hi - lo } each.
void put_site_ranges_counted_first(ThreadState* t, const SiteAccesses& bytes) {
    put(t, bytes.range_count());
    u64 prev = 0;
    bytes.visit(
        [&](u64 lo, u64 hi) {
            put(t, lo - prev);
            put(t, hi - lo);
            prev = hi;
        },
        [&](const RunRanges& run, u64 prev_hi) {
            // A strided run: its first range, then count - 1 times the same two varints
            // (gap, size), written as one repeated byte pattern.
            put(t, run.lo - prev_hi);
            put(t, run.size);
            if (run.count > 1) put_repeated_pair(t, run.step - run.size, run.size, run.count - 1);
        });
}

// The same bytes in one visit rather than two (counting, then writing: merging a scattered
// site's ranges, granules and dense pages is most of the writing): the ranges go into the
// record buffer after room for the largest count, and the count, known then, is put in front
// of them. When they would not fit in the buffer (which must not be flushed in between),
// nothing is kept of them and the site is written counted first.
void put_site_ranges(ThreadState* t, const SiteAccesses& bytes) {
    constexpr std::size_t kCountRoom = 10; // a varint of 64 bits
    constexpr std::size_t kRangeRoom = 20; // two
    const std::size_t start = t->len;
    std::size_t len = start + kCountRoom;
    bool fits = kBufferSize - start >= kCountRoom + kRangeRoom;
    u64 prev = 0;
    const u64 count = bytes.visit(
        [&](u64 lo, u64 hi) {
            if (!fits || kBufferSize - len < kRangeRoom) {
                fits = false;
                return;
            }
            unsigned char* p = firstrace::format::put_varint(t->buf + len, lo - prev);
            p = firstrace::format::put_varint(p, hi - lo);
            len = static_cast<std::size_t>(p - t->buf);
            prev = hi;
        },
        [&](const RunRanges& run, u64 prev_hi) {
            if (run.count == 1) { // one range (a single access, a repeat, a contiguous sweep)
                if (!fits || kBufferSize - len < kRangeRoom) {
                    fits = false;
                    return;
                }
                unsigned char* p = firstrace::format::put_varint(t->buf + len, run.lo - prev_hi);
                p = firstrace::format::put_varint(p, run.size);
                len = static_cast<std::size_t>(p - t->buf);
                return;
            }
            const RepeatedPair pair(run.step - run.size, run.size);
            if (!fits || kBufferSize - len <
                             kRangeRoom + pair.copy_bytes(run.count - 1) + RepeatedPair::kBlock) {
                fits = false;
                return;
            }
            unsigned char* p = firstrace::format::put_varint(t->buf + len, run.lo - prev_hi);
            p = firstrace::format::put_varint(p, run.size);
            for (u64 times = run.count - 1; times != 0;) {
                const u64 copies = pair.put_block(p, times);
                p += pair.copy_bytes(copies);
                times -= copies;
            }
            len = static_cast<std::size_t>(p - t->buf);
        });
    if (!fits) {
        put_site_ranges_counted_first(t, bytes);
        return;
    }
    unsigned char count_bytes[kCountRoom];
    const auto k =
        static_cast<std::size_t>(firstrace::format::put_varint(count_bytes, count) - count_bytes);
    std::memmove(t->buf + start + k, t->buf + start + kCountRoom, len - start - kCountRoom);
    std::memcpy(t->buf + start, count_bytes, k);
    t->len = len - (kCountRoom - k);
}

} // namespace

void close_computation(ThreadState* t, u64 clock) {
    // An event during which no other process could run unordered with it races with nothing
    // (every other process is created after it or joined before it): its accesses are left out.
    // alone() is asked again at the end for threads the runtime sees only when they run
    // (unordered_helper_thread covers the ones libc starts for the program).
    const bool unordered_with_nothing = t->event_alone && alone();
    if (t->nsites != 0 && !unordered_with_nothing && begin_record(t)) {
        put_byte(t, firstrace::format::kRecComputeStacks);
        put(t, t->event_start);
        put(t, clock >= t->event_start ? clock - t->event_start : 0);
        put_context(t, t->ctx, t->ctx_depth);
        put(t, t->nsites);
        for (u32 i = 0; i < t->nsites; ++i) {
            const Site& s = t->table[t->order[i]];
            put(t, s.pc);
            put(t, s.stack);
            put_byte(t, s.flags);
            put_site_ranges(t, s.bytes);
        }
        end_record(t);
    }
    reset_event(t, clock);
}

void periodic(ThreadState* t) {
    t->budget = kBudget;
    const u64 c = now();
    if (c - t->event_start > kSplitAfterNs) close_computation(t, c);
}

void on_access_slow(u64 pc, u64 addr, u64 size, u8 flags) {
    ThreadState* t = current();
    if (t == nullptr || t->guard != 0) return;
    t->guard = 1;
    if (t->budget == 0) periodic(t); // the fast path counted this access down to zero
    add_access_slow(t, pc, addr, size, flags);
    leave(t);
}

void add_access_slow(ThreadState* t, u64 pc, u64 addr, u64 size, u8 flags) {
    if (size == 0) return;
    // Annotated ignore regions: never enter the site table, so the fast path never sees the
    // site either (rt_annotations.cpp closes the event when the region begins).
    if (FRT_UNLIKELY(t->ignore_access_kinds & flags)) return;
    const u64 key = site_key(t, pc, flags);
    for (int attempt = 0; attempt < 2; ++attempt) {
        Site* s =
            (t->last_key == key && t->last_site) ? t->last_site : find_site(t, key, pc, flags);
        EventArena arena{t};
        if (s != nullptr && s->bytes.add(addr, size, arena)) {
            t->last_key = key;
            t->last_site = s;
            return;
        }
        // The event is full: split it here (any split of a computation event is legal).
        close_computation(t, now());
    }
}

} // namespace frt
