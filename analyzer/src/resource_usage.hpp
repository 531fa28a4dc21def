// Peak resident set size of this process, for the stage statistics.
#pragma once

#include <sys/resource.h>

#include <cstdint>

namespace firstrace {

inline std::uint64_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

} // namespace firstrace
