// The spare stream files (rt_spare_stream.cpp): stream files created ahead of need, for threads
// that start when the program has left no descriptor number free.
#pragma once

#include <atomic>

#include "rt_internal.hpp"

namespace frt {

// Creates the spares that are missing in the trace directory (only on the runtime's band of
// descriptor numbers: never one of the program's).
void spare_stream_prepare();
// A spare becomes the stream file `name` (renamed in the trace directory) kept in holder and
// written under io_lock; returns its descriptor, -1 when there is none.
int spare_stream_take(const char* name, std::atomic<int>& holder, std::atomic<u32>* io_lock);
// Fork child: the spares inherited are the parent's files; the child makes its own later.
void spare_stream_after_fork();
// At the end of the trace: the unused spares are removed.
void spare_stream_remove();

} // namespace frt
