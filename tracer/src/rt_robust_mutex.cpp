// Robust mutexes (PTHREAD_MUTEX_ROBUST). When the owner of a robust mutex ends while holding
// it, the kernel (walking the thread's robust list at its exit) marks the mutex as abandoned and
// the next lock returns EOWNERDEAD: the mutex is then held by the caller, who may repair the
// protected data (pthread_mutex_consistent) and unlock. What the dead owner wrote under the lock
// happened before that lock returned, exactly as if it had unlocked at its end.
//
//   lock returning 0 or EOWNERDEAD   an Acquire (rt_interceptors.cpp, acquire_op); a robust
//                                    mutex is remembered as held by the thread
//   unlock                           a Release (as every mutex); it is forgotten
//   the thread's end                 a Release of every robust mutex it still holds, before the
//                                    end of its trace (the kernel hands the mutex on only after
//                                    the thread is gone, so its counter comes first)
//
// A thread remembers up to 4 robust mutexes held at once (more are not released at its end:
// their next owner's EOWNERDEAD lock is then not ordered after the dead owner).
#include <pthread.h>

#include "rt_record.hpp"

namespace frt {

namespace {
// glibc's mutex kind bit for robust mutexes (PTHREAD_MUTEX_ROBUST_NORMAL_NP in its pthreadP.h;
// the kind is in the public pthread_mutex_t layout).
constexpr int kRobustKindBit = 16;

bool robust(const void* m) {
    return (static_cast<const pthread_mutex_t*>(m)->__data.__kind & kRobustKindBit) != 0;
}
} // namespace

void robust_mutex_locked(ThreadState* t, const void* m) {
    if (!robust(m)) return;
    for (u32 i = 0; i < t->robust_count; ++i)
        if (t->robust_held[i] == m) return; // a recursive robust mutex locked again
    if (t->robust_count < sizeof t->robust_held / sizeof t->robust_held[0])
        t->robust_held[t->robust_count++] = m;
}

void robust_mutex_unlocked(ThreadState* t, const void* m) {
    if (t->robust_count == 0 || !robust(m)) return;
    if (static_cast<const pthread_mutex_t*>(m)->__data.__count > 0) return; // recursive: held
    for (u32 i = 0; i < t->robust_count; ++i) {
        if (t->robust_held[i] == m) {
            t->robust_held[i] = t->robust_held[--t->robust_count];
            return;
        }
    }
}

void robust_mutexes_released_at_end(ThreadState* t) {
    while (t->robust_count > 0)
        release_now(t, firstrace::format::kObjMutex, t->robust_held[--t->robust_count], 0, false);
}

} // namespace frt
