// Release sequences of an atomic object (rt_atomic_model.hpp).
#include "rt_atomic_model.hpp"

#include <firstrace/trace_format.hpp>

namespace frt {
namespace {

FRT_INLINE u64 head_incarnation(u32 sequence, u32 pid) {
    return (u64{sequence} << 22) | pid;
}

void acquire_heads(ObjEntry* o, u32 pid, AtomicRecords& out) {
    const u32 sequence = o->incarnation.load(std::memory_order_relaxed);
    for (ObjEntry::ReleaseHead& h : o->heads) {
        if (h.pid_plus_one == 0 || h.pid_plus_one == pid + 1) continue;
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
        if (h.pid_plus_one != 0) return true;
    return false;
}

} // namespace

void atomic_effect(ObjEntry* o, u32 pid, AtomicEffect effect, AtomicRecords& out) {
    out.count = 0;
    if (effect.acquire) acquire_heads(o, pid, out);
    // a plain store ends the sequence (nothing to end when no release heads one)
    const bool ends = effect.plain_store && has_heads(o);
    if (ends) end_sequence(o);
    if (effect.release) {
        ObjEntry::ReleaseHead* head = nullptr;
        ObjEntry::ReleaseHead* free_slot = nullptr;
        for (ObjEntry::ReleaseHead& h : o->heads) {
            if (h.pid_plus_one == pid + 1) head = &h;
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
