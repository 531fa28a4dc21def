// The trace of the image an exec'd image replaced, when that was a traced fork child's
// (rt_exec_predecessor.cpp).
#pragma once

#include <cstddef>

namespace frt {

// Inside the trace directory `top`: the path (relative to it, into `relative` of `size` bytes) of
// fork-<this pid>, when its exec chain's last trace ended with an exec (the image this process
// replaced); false otherwise.
bool find_exec_predecessor(const char* top, char* relative, std::size_t size);

} // namespace frt
