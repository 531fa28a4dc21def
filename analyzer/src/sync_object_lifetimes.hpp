// Synchronization objects in reused memory (issue 11, DESIGN-NOTES "Sync objects in reused
// memory (lockreuse)").
//
// The tracer keys a synchronization object by (class, address), and its counters run on across
// a free of its memory. A lock that no init call starts (`PTHREAD_MUTEX_INITIALIZER` assigned in
// a new block, `std::mutex`'s constexpr constructor, an atomic flag zeroed by `calloc` or a
// constructor) where another thread's lock was would continue that lock's history: its first
// acquire would pair with the old lock's last release (Netzer's ordering by object and counter),
// an ordering the program never made, which hides races between the two threads. An object's
// history ends where its memory's does: as an access (memory_lifetimes.hpp), an operation on an
// object in program memory belongs to the lifetime of the object's first byte at the end of the
// operation, and the operations of each later lifetime are an object of their own (a copy of
// the one the trace names). In a program that orders its uses of the memory every operation on
// the old object ends before the free, and every operation on the new one after the reuse
// (its memory is handed out after the Acquire that starts the lifetime). ThreadSanitizer does
// the same at a free and an unmapping (MetaMap::FreeRange / ResetRange).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "firstrace/model.hpp"
#include <firstrace/trace_format.hpp>

namespace firstrace {

// Whether the objects of a wire class (trace_format.hpp) are named by the address of program
// memory, so that their history ends with that memory's lifetime. Not: threads, the allocator's
// and thread storage's own objects (they start the lifetimes), descriptors, signals, fibers and
// AIO blocks (named by handles), OpenMP's objects (ids of the OpenMP runtime).
inline bool lives_in_program_memory(std::uint8_t wire_class) {
    namespace fmt = firstrace::format;
    switch (wire_class) {
    case fmt::kObjMutex:
    case fmt::kObjRwLock:
    case fmt::kObjSpinLock:
    case fmt::kObjSemaphore:
    case fmt::kObjBarrier:
    case fmt::kObjCondition:
    case fmt::kObjAtomic:
    case fmt::kObjAnnotation:
    case fmt::kObjRwLockReaders:
    case fmt::kObjOnce:
    case fmt::kObjFutex:
        return true;
    default:
        return false;
    }
}

// The object of the operations on `object` in a later lifetime of its memory: a copy of it per
// lifetime, made at its first operation there, named as the object with the lifetime added.
class SyncObjectLifetimes {
  public:
    explicit SyncObjectLifetimes(std::vector<SyncObject>& objects) : objects_(objects) {}

    // lifetime 0 (the memory's first): the object itself
    std::uint32_t in_lifetime(std::uint32_t object, std::uint64_t lifetime) {
        if (lifetime == 0 || object >= objects_.size()) return object;
        const auto [it, inserted] = copies_.try_emplace(
            lifetime << 32 | object, static_cast<std::uint32_t>(objects_.size()));
        if (inserted) {
            SyncObject copy = objects_[object];
            copy.name += " (lifetime " + std::to_string(lifetime) + ")";
            objects_.push_back(std::move(copy));
        }
        return it->second;
    }

  private:
    std::vector<SyncObject>& objects_;
    std::unordered_map<std::uint64_t, std::uint32_t> copies_; // lifetime << 32 | object -> copy
};

} // namespace firstrace
