// Objects that many threads release and a waiter acquires as a whole: a kernel object whose
// waiter cannot tell which release it observed (a SysV semaphore's increments, a message
// queue's sends of one type, the ends of a process's children). Each releasing thread has its
// own object under the key (bit = its process id mod 64: its releases follow its program order,
// so each replaces its last), and an acquire takes every writer object the key has had. No
// releaser is ordered after another (a merging release would order each after all earlier
// ones); two keys that share a set, or two threads a bit, only order more.
#pragma once

#include "rt_record.hpp"

namespace frt {

template <u8 Class> class WriterSets {
  public:
    // keys below 2^58 (the object is key << 6 | bit)
    void release(ThreadState* t, u64 key, u64 pc) {
        const u32 bit = t->pid % 64;
        writers(key).fetch_or(1ull << bit, std::memory_order_relaxed);
        release_now(t, Class, object_of(key, bit), pc, false);
    }
    // False when the key has no release yet (nothing acquired).
    bool acquire(ThreadState* t, u64 key, u64 pc) {
        u64 set = writers(key).load(std::memory_order_relaxed);
        bool acquired = false;
        while (set != 0) {
            const u32 bit = static_cast<u32>(__builtin_ctzll(set));
            set &= set - 1;
            if (find_object(Class, object_of(key, bit)) != nullptr) {
                acquire_now(t, Class, object_of(key, bit), pc);
                acquired = true;
            }
        }
        return acquired;
    }

  private:
    static constexpr u32 kSets = 4096;
    std::atomic<u64> sets_[kSets] = {};
    std::atomic<u64>& writers(u64 key) { return sets_[(key * 0x9E3779B97F4A7C15ull) >> 52]; }
    static const void* object_of(u64 key, u32 bit) {
        return reinterpret_cast<const void*>(key << 6 | bit);
    }
};

} // namespace frt
