// The table of synchronization objects: one entry per (object class, address) that a
// synchronization operation used, holding the object's counter (its order of operations, the
// `counter` of kRecSync), and what the class needs besides (semaphore and barrier values, the
// latest release of an atomic, the incarnation sem_init starts). Open addressing over one
// mmap'd array, insert by CAS on the key: no lock, no malloc, entries never move or go away.
#include <sys/mman.h>
#include <unistd.h>

#include "rt_system.hpp"

namespace frt {

namespace {
constexpr u64 kObjTableSize = 1ull << 20;
ObjEntry* g_objects = nullptr;
ObjEntry g_overflow[16]; // when the table is full: one (over-ordering) object per class

u64 object_key(u8 cls, const void* addr) {
    return (static_cast<u64>(cls) << 56) ^ reinterpret_cast<u64>(addr) ^ (1ull << 63);
}
} // namespace

void sync_objects_init() {
    g_objects = static_cast<ObjEntry*>(map_anonymous(kObjTableSize * sizeof(ObjEntry)));
}

void sync_objects_after_fork() {
    // Only the forking thread lives on in the child, and it holds no entry's spin lock (it is in
    // fork, not in an operation on an object): every lock still held was held by a thread that
    // does not exist here and would never be released. Only the pages of the table the parent
    // touched can hold an entry: mincore tells which are resident, so the child does not fault
    // in the other 80 MiB of it (a page fault each: a second or more per fork on a loaded
    // machine, times every fork of a program that forks in a loop).
    // Each lock is read first and written only when held: a write of a page the parent
    // touched copies it (copy-on-write, with a TLB flush in the parent), and nearly every entry
    // is free (Linux/fork_multithreaded4: 1000 forks from 100 threads spent most of their time
    // here copying pages whose locks were all free).
    for (ObjEntry& e : g_overflow)
        if (e.spin.load(std::memory_order_relaxed) != 0) e.spin.store(0, std::memory_order_relaxed);
    if (g_objects == nullptr) return;
    const u64 page = static_cast<u64>(sysconf(_SC_PAGESIZE));
    const u64 base = reinterpret_cast<u64>(g_objects);
    const u64 bytes = kObjTableSize * sizeof(ObjEntry);
    const u64 pages = (bytes + page - 1) / page;
    constexpr u64 kBatch = 4096; // pages per mincore call
    unsigned char resident[kBatch];
    for (u64 first = 0; first < pages; first += kBatch) {
        const u64 n = pages - first < kBatch ? pages - first : kBatch;
        const u64 len = bytes - first * page < n * page ? bytes - first * page : n * page;
        const bool known =
            mincore(reinterpret_cast<void*>(base + first * page), len, resident) == 0;
        for (u64 p = first; p < first + n; ++p) {
            if (known && (resident[p - first] & 1) == 0) continue; // never touched: no entry
            // the entries whose key (their first member) lies on page p
            const u64 lo = (p * page + sizeof(ObjEntry) - 1) / sizeof(ObjEntry);
            u64 hi = ((p + 1) * page + sizeof(ObjEntry) - 1) / sizeof(ObjEntry);
            if (hi > kObjTableSize) hi = kObjTableSize;
            for (u64 i = lo; i < hi; ++i)
                if (g_objects[i].key.load(std::memory_order_relaxed) != 0 &&
                    g_objects[i].spin.load(std::memory_order_relaxed) != 0)
                    g_objects[i].spin.store(0, std::memory_order_relaxed);
        }
    }
}

ObjEntry* object(u8 cls, const void* addr) {
    if (g_objects == nullptr) return &g_overflow[cls & 15];
    const u64 key = object_key(cls, addr);
    u64 i = hash64(key) & (kObjTableSize - 1);
    for (u32 probe = 0; probe < 4096; ++probe, i = (i + 1) & (kObjTableSize - 1)) {
        ObjEntry& e = g_objects[i];
        u64 k = e.key.load(std::memory_order_acquire);
        if (k == key) return &e;
        if (k == 0) {
            if (e.key.compare_exchange_strong(k, key, std::memory_order_acq_rel)) return &e;
            if (k == key) return &e;
        }
    }
    return &g_overflow[cls & 15];
}

ObjEntry* find_object(u8 cls, const void* addr) {
    if (g_objects == nullptr) return nullptr;
    const u64 key = object_key(cls, addr);
    u64 i = hash64(key) & (kObjTableSize - 1);
    for (u32 probe = 0; probe < 4096; ++probe, i = (i + 1) & (kObjTableSize - 1)) {
        const u64 k = g_objects[i].key.load(std::memory_order_acquire);
        if (k == key) return &g_objects[i];
        if (k == 0) return nullptr;
    }
    return nullptr;
}

} // namespace frt
