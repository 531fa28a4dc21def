#pragma once
// The advice for transparent huge pages on a large array (huge_pages.hpp says why: one page
// fault per 2 MiB instead of 512), shared by the vectors of huge_pages.hpp and PageArray.
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace firstrace {

// Asks for huge pages on the whole 2 MiB pages inside [data, data + bytes). Below a few huge
// pages the advice would only split the mapping: nothing is done.
inline void advise_huge_pages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(1) << 21;
    if (bytes < 8 * kHuge) return;
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (address + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (address + bytes) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace firstrace
