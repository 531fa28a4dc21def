// Release sequences of an atomic object (rt_atomic_model.hpp).
#include "rt_atomic_model.hpp"

#include <firstrace/trace_format.hpp>

namespace frt {
namespace {

// A head whose sequence a store of another process ended (C11 5.1.2.4p10): it keeps its slot
// and its counter, so that a later release of its process continues the counter sequence of
// its object, but acquires no longer pair with it.
constexpr u32 kEnded = 1u << 31;

FRT_INLINE u64 head_incarnation(u32 sequence, u32 pid) {
    return (u64{sequence} << 22) | pid;
}

FRT_INLINE bool active(const ObjEntry::ReleaseHead& h) {
    return h.pid_plus_one != 0 && (h.pid_plus_one & kEnded) == 0;
}

FRT_INLINE bool of_process(const ObjEntry::ReleaseHead& h, u32 pid) {
    return (h.pid_plus_one & ~kEnded) == pid + 1;
}

void acquire_heads(ObjEntry* o, u32 pid, AtomicRecords& out) {
    const u32 sequence = o->incarnation.load(std::memory_order_relaxed);
    for (ObjEntry::ReleaseHead& h : o->heads) {
        if (!active(h) || h.pid_plus_one == pid + 1) continue;
        out.entries[out.count++] = {firstrace::format::kOpAcquire,
                                    head_incarnation(sequence, h.pid_plus_one - 1),
                                    h.next_counter++};
    }
}

void end_sequence(ObjEntry* o) {
    o->incarnation.fetch_add(1, std::memory_order_relaxed);
    for (ObjEntry::ReleaseHead& h : o->heads)
        h = {};
}

bool has_heads(const ObjEntry* o) {
    for (const ObjEntry::ReleaseHead& h : o->heads)
        if (active(h)) return true;
    return false;
}

// A store that is not a read-modify-write, by process `pid`, ends the release sequences of the
// other processes' releases; one headed by a release of `pid` itself goes on through it (C11
// 5.1.2.4p10, C++11-17 [intro.races]: "performed by the same thread that performed the
// release"; C++20 dropped that clause, P0982, but gcc 12 and clang 14 compile C++17 and C++14 by
// default, and ThreadSanitizer keeps the release too).
void end_other_sequences(ObjEntry* o, u32 pid) {
    bool own = false;
    for (const ObjEntry::ReleaseHead& h : o->heads)
        own |= active(h) && h.pid_plus_one == pid + 1;
    if (!own) {
        end_sequence(o);
        return;
    }
    for (ObjEntry::ReleaseHead& h : o->heads)
        if (active(h) && h.pid_plus_one != pid + 1) h.pid_plus_one |= kEnded;
}

} // namespace

void atomic_effect(ObjEntry* o, u32 pid, AtomicEffect effect, AtomicRecords& out) {
    out.count = 0;
    if (effect.acquire) acquire_heads(o, pid, out);
    // a plain store ends the sequences (nothing to end when no release heads one)
    const bool ends = effect.plain_store && has_heads(o);
    if (ends) end_other_sequences(o, pid);
    if (effect.release) {
        ObjEntry::ReleaseHead* head = nullptr;
        ObjEntry::ReleaseHead* free_slot = nullptr;
        for (ObjEntry::ReleaseHead& h : o->heads) {
            if (of_process(h, pid)) head = &h;
            if (h.pid_plus_one == 0 && free_slot == nullptr) free_slot = &h;
        }
        if (head == nullptr && free_slot == nullptr) {
            // one process more than kHeads: merge (acquire the heads, start a sequence)
            if (!effect.acquire) acquire_heads(o, pid, out);
            end_sequence(o);
            free_slot = &o->heads[0];
        }
        if (head == nullptr) {
            head = free_slot;
            *head = {pid + 1, 0};
        }
        head->pid_plus_one = pid + 1; // a head that was ended starts again
        out.entries[out.count++] = {
            firstrace::format::kOpRelease,
            head_incarnation(o->incarnation.load(std::memory_order_relaxed), pid),
            head->next_counter++};
    }
    if (effect.release || ends) o->last_release.fetch_add(1, std::memory_order_relaxed);
}

bool repeats_release(ObjEntry* o, u32 pid, const AtomicRecords& records, u64 incarnation,
                     u64 counter) {
    if (records.count != 1) return false;
    const AtomicRecords::Entry& e = records.entries[0];
    if (e.op != firstrace::format::kOpRelease || e.incarnation != incarnation ||
        e.counter <= counter)
        return false;
    for (ObjEntry::ReleaseHead& h : o->heads) {
        if (h.pid_plus_one == pid + 1 && h.next_counter == e.counter + 1) {
            h.next_counter = static_cast<u32>(e.counter);
            // nothing changed for an acquirer either: its next acquire of o may be elided
            o->last_release.fetch_sub(1, std::memory_order_relaxed);
            return true;
        }
    }
    return false;
}

} // namespace frt
