// The dynamic loader's lock (rt_loader_lock.cpp): what dlclose (rt_dlclose.cpp) and free
// (rt_allocator.cpp) contribute to it.
#pragma once

#include "rt_internal.hpp"

namespace frt {

// True while the calling thread is inside dlclose.
extern __thread bool tls_in_dlclose __attribute__((tls_model("initial-exec")));

// Held around the real dlclose: the loader's frees inside take the loader's lock. Nests (a
// destructor of the unloaded library may call dlclose itself).
class LoaderClose {
  public:
    LoaderClose();
    ~LoaderClose();
    LoaderClose(const LoaderClose&) = delete;
    LoaderClose& operator=(const LoaderClose&) = delete;

  private:
    bool outer_;
};

// A free called at pc by the calling thread, before its write of the block (guard held): a
// free by the loader's code inside dlclose takes the loader's lock.
void loader_teardown_free(ThreadState* t, u64 pc);
FRT_INLINE void before_free(ThreadState* t, u64 pc) {
    if (FRT_UNLIKELY(tls_in_dlclose)) loader_teardown_free(t, pc);
}

} // namespace frt
