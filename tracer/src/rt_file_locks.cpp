// flock(2): whole-file locks owned by an open file description. Two threads that open a file
// each (two descriptions) and flock it exclude each other, as threads with a reader-writer
// lock do: LOCK_EX as a write lock, LOCK_SH as a read lock. Modelled as pthread rwlocks are
// (rt_interceptors.cpp): the lock of a file is a kObjRwLock and its shared unlocks a
// kObjRwLockReaders chain, at a byte of firstrace_file_locks that stands for the file (its
// device and inode hashed: two files that share a byte are ordered as one lock, never a false
// race). A lock taken (LOCK_SH/LOCK_EX returning 0, with or without LOCK_NB) acquires; LOCK_UN
// and the close of the descriptor that holds the lock release. A conversion (LOCK_SH on a
// descriptor holding LOCK_EX or the reverse) releases the old mode first: flock(2) does not
// convert atomically. Threads sharing one description do not exclude each other (the lock is
// already the description's): the second one's LOCK_EX returns at once and acquires only the
// releases made so far, so what both do under "the lock" still races, as it does.
// The holding mode is kept per descriptor number (a close of a duplicate of the holding
// descriptor does not release the description's lock; that case is not told apart).
// POSIX record locks (fcntl F_SETLK, lockf) belong to the process and exclude no thread of it:
// nothing to model. ThreadSanitizer does not model flock.
#include <sys/file.h>

#include "rt_fd.hpp"
#include "rt_fd_table.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;
namespace fmt = firstrace::format;

extern "C" {
__attribute__((visibility("default"))) unsigned char firstrace_file_locks[1 << 16];
}

namespace {
FRT_DECLARE_REAL(flock);

enum LockMode : u8 { kUnlocked = 0, kShared = 1, kExclusive = 2 };

const void* lock_byte(u64 file) {
    return &firstrace_file_locks[file % sizeof firstrace_file_locks];
}

void locked(ThreadState* t, const void* lock, LockMode mode, u64 pc) {
    acquire_now(t, fmt::kObjRwLock, lock, pc);
    if (mode == kExclusive) acquire_now(t, fmt::kObjRwLockReaders, lock, pc);
}
void unlocked(ThreadState* t, const void* lock, LockMode mode, u64 pc) {
    if (mode == kExclusive)
        release_now(t, fmt::kObjRwLock, lock, pc, false);
    else if (mode == kShared)
        release_now(t, fmt::kObjRwLockReaders, lock, pc, true);
}
} // namespace

void frt::fd::file_lock_closed(ThreadState* t, int fd, DescriptorState& s, u64 pc) {
    const auto mode = static_cast<LockMode>(s.file_lock.exchange(kUnlocked));
    if (mode == kUnlocked) return;
    if (const u64 file = file_key(fd); file != 0) unlocked(t, lock_byte(file), mode, pc);
}

FRT_EXPORT int flock(int fd, int operation) {
    const u64 pc = FRT_CALLER();
    fd::DescriptorState* s = fd::descriptor_state(fd);
    const int op = operation & ~LOCK_NB;
    const u64 file = s != nullptr ? fd::file_key(fd) : 0;
    if (file == 0 || (op != LOCK_SH && op != LOCK_EX && op != LOCK_UN))
        return REAL(flock)(fd, operation);
    const LockMode wanted = op == LOCK_EX ? kExclusive : op == LOCK_SH ? kShared : kUnlocked;
    const auto held = static_cast<LockMode>(s->file_lock.load(std::memory_order_relaxed));
    if (held != kUnlocked && held != wanted) { // an unlock, or a conversion: released first
        s->file_lock.store(kUnlocked, std::memory_order_relaxed);
        if (InterceptorScope scope(enter_call(pc)); scope)
            unlocked(scope.thread(), lock_byte(file), held, pc);
    }
    const int r = REAL(flock)(fd, operation);
    if (r == 0 && wanted != kUnlocked && held != wanted) {
        s->file_lock.store(wanted, std::memory_order_relaxed);
        if (InterceptorScope scope(enter_call(pc)); scope)
            locked(scope.thread(), lock_byte(file), wanted, pc);
    }
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(flock)
