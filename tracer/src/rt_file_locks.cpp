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
// Open file description locks (Linux fcntl(2) F_OFD_SETLK, F_OFD_SETLKW: F_WRLCK a write lock,
// F_RDLCK a read lock, F_UNLCK) are owned by the description too, and are the same model on a
// byte of their own (they never conflict with flock's). They lock byte ranges: every range is
// taken as the whole file, so two threads locking disjoint ranges are ordered as if they
// excluded each other (an ordering more, never a false race; the common use locks the whole
// file, l_len 0). A conversion by F_OFD_SETLKW is atomic in the kernel, but is recorded as
// flock's, release then acquire.
// POSIX record locks (fcntl F_SETLK, F_SETLKW, lockf) belong to the process and exclude no
// thread of it: nothing to model (two threads both "holding" one race). ThreadSanitizer models
// neither flock nor fcntl locks.
#include <fcntl.h>
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
// The two kinds of description locks, independent of each other; a descriptor's file_lock
// holds each one's mode in two bits.
enum LockKind : u8 { kFlock = 0, kOpenDescription = 1 };

const void* lock_byte(u64 file, LockKind kind) {
    return &firstrace_file_locks[(file * 2 + kind) % sizeof firstrace_file_locks];
}
LockMode held_mode(const fd::DescriptorState& s, LockKind kind) {
    return static_cast<LockMode>(s.file_lock.load(std::memory_order_relaxed) >> (2 * kind) & 3);
}
void set_mode(fd::DescriptorState& s, LockKind kind, LockMode mode) {
    const u8 others = s.file_lock.load(std::memory_order_relaxed) & ~(3u << (2 * kind));
    s.file_lock.store(static_cast<u8>(others | mode << (2 * kind)), std::memory_order_relaxed);
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

// A lock call of `kind` on fd wanting `wanted` (kUnlocked: an unlock), made by `call`, which
// returns 0 when the lock was taken or given back.
template <class Call> int lock_call(int fd, LockKind kind, LockMode wanted, u64 pc, Call call) {
    fd::DescriptorState* s = fd::descriptor_state(fd);
    const u64 file = s != nullptr ? fd::file_key(fd) : 0;
    if (file == 0) return call();
    const LockMode held = held_mode(*s, kind);
    if (held != kUnlocked && held != wanted) { // an unlock, or a conversion: released first
        set_mode(*s, kind, kUnlocked);
        if (InterceptorScope scope(enter_call(pc)); scope)
            unlocked(scope.thread(), lock_byte(file, kind), held, pc);
    }
    const int r = call();
    if (r == 0 && wanted != kUnlocked && held != wanted) {
        set_mode(*s, kind, wanted);
        if (InterceptorScope scope(enter_call(pc)); scope)
            locked(scope.thread(), lock_byte(file, kind), wanted, pc);
    }
    return r;
}
} // namespace

void frt::fd::file_lock_closed(ThreadState* t, int fd, DescriptorState& s, u64 pc) {
    const u8 modes = s.file_lock.exchange(kUnlocked);
    if (modes == kUnlocked) return;
    const u64 file = file_key(fd);
    if (file == 0) return;
    for (const LockKind kind : {kFlock, kOpenDescription})
        unlocked(t, lock_byte(file, kind), static_cast<LockMode>(modes >> (2 * kind) & 3), pc);
}

int frt::fd::open_description_lock(int fd, int cmd, const struct flock* request, u64 pc,
                                   int (*real)(int, int, ...)) {
    const auto call = [&] { return real(fd, cmd, request); };
    if (request == nullptr) return call();
    const LockMode wanted = request->l_type == F_WRLCK   ? kExclusive
                            : request->l_type == F_RDLCK ? kShared
                            : request->l_type == F_UNLCK ? kUnlocked
                                                         : LockMode{3};
    if (wanted == LockMode{3}) return call();
    return lock_call(fd, kOpenDescription, wanted, pc, call);
}

FRT_EXPORT int flock(int fd, int operation) {
    const int op = operation & ~LOCK_NB;
    if (op != LOCK_SH && op != LOCK_EX && op != LOCK_UN) return REAL(flock)(fd, operation);
    const LockMode wanted = op == LOCK_EX ? kExclusive : op == LOCK_SH ? kShared : kUnlocked;
    return lock_call(fd, kFlock, wanted, FRT_CALLER(), [&] { return REAL(flock)(fd, operation); });
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(flock)
