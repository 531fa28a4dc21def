// The runtime's per-event arena as the tracer's unit tests see it: a bump allocator of 16-byte
// units (ranges, granule and page slots, dense pages' bitmaps) that can run out, like
// rt_site_table.cpp's arena_take.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace frt_test {

struct TestArena {
    struct alignas(16) Unit {
        std::uint64_t words[2];
    };
    std::vector<Unit> storage;
    std::size_t used = 0;
    explicit TestArena(std::size_t units) : storage(units) {}
    template <class T> T* take(std::uint32_t count) {
        static_assert(sizeof(T) == sizeof(Unit) && alignof(T) <= alignof(Unit));
        if (used + count > storage.size()) return nullptr;
        T* r = reinterpret_cast<T*>(storage.data() + used);
        used += count;
        return r;
    }
};

} // namespace frt_test
