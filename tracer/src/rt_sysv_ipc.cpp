// System V IPC (XSH semop, msgsnd, msgrcv, shmat, shmdt), as threads of one process use it: the
// kernel keeps the objects, so the C library's calls are the only points to record.
//   semop, semtimedop  each operation of the set on semaphore (set, number): an increment
//                      (sem_op > 0, a V) is a release of the semaphore, before the call; a
//                      decrement (sem_op < 0, a P) that the call performed acquires every
//                      increment so far (which one let it proceed is not known, as for a
//                      counting semaphore: rt_writer_sets.hpp); a wait for zero (sem_op == 0)
//                      acquires the decrements, which release the semaphore's zero before the
//                      call. A failed call (EAGAIN with IPC_NOWAIT, EINTR, a timeout) performed
//                      no operation of the set (semop is atomic): it acquires nothing. The
//                      operations array is read.
//   msgsnd             a read of the message (its type and `size` bytes of text), then a
//                      release of the queue's messages of that type, before the call.
//   msgrcv             returning n bytes: a write of the type and n bytes of text, then an
//                      acquire of every send of the received type so far (msgrcv(2): within a
//                      type the queue is FIFO, but which send is the one received is not
//                      known here). A failed receive (ENOMSG with IPC_NOWAIT) acquires nothing.
//   shmat              a new mapping of the segment's size (shmctl IPC_STAT), as mmap's
//                      (rt_mmap.hpp): a later attach at the address another thread detached is
//                      new memory, ordered after that detach.
//   shmdt              a write of the attachment's range and its free, as munmap's, before the
//                      call (the size is the one kept at shmat; a detach of an address this
//                      process did not attach here records nothing).
//   semctl             XBD 4.12 lists semctl with semop among the functions that synchronize
//                      memory: SETVAL (of one semaphore) and SETALL (of the set's) release
//                      the semaphores before the call, as an increment does; GETVAL (one) and
//                      GETALL (all) acquire them after a successful call, as a decrement does
//                      (a thread that polls GETVAL until another's SETVAL or V shows is
//                      ordered after it). SETALL and GETALL write and read the values array,
//                      GETALL the set's size as IPC_STAT tells it.
// Semaphores and queues are named by their identifiers (set, number / queue, type) hashed;
// identifiers are system-wide, so two processes' records never meet (each process its own
// trace). Between processes (fork children) each process's trace is analyzed alone.
// ThreadSanitizer does not intercept System V IPC: semaphore and message hand-offs are false
// races there.
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <time.h>

#include "rt_library_call.hpp"
#include "rt_mmap.hpp"
#include "rt_real.hpp"
#include "rt_system.hpp"
#include "rt_writer_sets.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
FRT_DECLARE_REAL(semop);
FRT_DECLARE_REAL(semtimedop);
FRT_DECLARE_REAL(semctl);
FRT_DECLARE_REAL(msgsnd);
FRT_DECLARE_REAL(msgrcv);
FRT_DECLARE_REAL(shmat);
FRT_DECLARE_REAL(shmdt);
FRT_DECLARE_REAL(shmctl);

constinit WriterSets<fmt::kObjIpc> g_ipc;

enum IpcKind : u64 { kSemaphore = 1, kSemaphoreZero = 2, kMessages = 3 };
// Keys below 2^58 (WriterSets); the kind in bits 54-57, apart from the children's keys
// (rt_child_processes.cpp: kind 4).
u64 ipc_key(IpcKind kind, int id, u64 sub) {
    const u64 h = hash64(static_cast<u64>(static_cast<u32>(id)) << 32 ^ hash64(sub + 1));
    return kind << 54 | (h & ((u64{1} << 54) - 1));
}

template <class Call>
int semaphore_operations(u64 pc, int id, const sembuf* ops, size_t n, Call call) {
    if (InterceptorScope scope(program_call(pc)); scope && ops != nullptr) {
        ThreadState* t = scope.thread();
        library_access(t, pc, ops, n * sizeof *ops, false);
        for (size_t i = 0; i < n; ++i) {
            if (ops[i].sem_op > 0) g_ipc.release(t, ipc_key(kSemaphore, id, ops[i].sem_num), pc);
            if (ops[i].sem_op < 0)
                g_ipc.release(t, ipc_key(kSemaphoreZero, id, ops[i].sem_num), pc);
        }
    }
    const int r = call();
    if (r != 0 || ops == nullptr) return r;
    const int saved_errno = errno;
    if (InterceptorScope scope(program_call(pc)); scope) {
        for (size_t i = 0; i < n; ++i) {
            if (ops[i].sem_op < 0)
                g_ipc.acquire(scope.thread(), ipc_key(kSemaphore, id, ops[i].sem_num), pc);
            else if (ops[i].sem_op == 0)
                g_ipc.acquire(scope.thread(), ipc_key(kSemaphoreZero, id, ops[i].sem_num), pc);
        }
    }
    errno = saved_errno;
    return r;
}

// The number of semaphores in set `id` (0 when IPC_STAT fails).
u64 semaphores_in(int id) {
    struct semid_ds ds;
    union {
        int value;
        struct semid_ds* buffer;
        unsigned short* values;
    } arg;
    arg.buffer = &ds;
    return REAL(semctl)(id, 0, IPC_STAT, arg) == 0 ? static_cast<u64>(ds.sem_nsems) : 0;
}

// semctl's commands that set or get semaphore values, for the semaphores [first, first + n).
void semaphore_values_set(u64 pc, int id, u64 first, u64 n, const unsigned short* values) {
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    if (values != nullptr) library_access(scope.thread(), pc, values, n * sizeof *values, false);
    for (u64 i = first; i < first + n; ++i)
        g_ipc.release(scope.thread(), ipc_key(kSemaphore, id, i), pc);
}
void semaphore_values_got(u64 pc, int id, u64 first, u64 n, unsigned short* values) {
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    if (values != nullptr) library_access(scope.thread(), pc, values, n * sizeof *values, true);
    for (u64 i = first; i < first + n; ++i)
        g_ipc.acquire(scope.thread(), ipc_key(kSemaphore, id, i), pc);
}

// The attachments made here: address and size (the segment's, rounded to pages as the kernel
// maps it). A full table leaves later attachments unrecorded at their detach.
constexpr u32 kAttachments = 1024;
struct Attachment {
    std::atomic<u64> address;
    u64 size;
};
Attachment g_attachments[kAttachments];

void attachment_made(u64 address, u64 size) {
    for (Attachment& a : g_attachments) {
        u64 empty = 0;
        if (a.address.load(std::memory_order_relaxed) == 0) {
            a.size = size; // read only by the detach, after the program got the address
            if (a.address.compare_exchange_strong(empty, address, std::memory_order_release))
                return;
        }
    }
}
u64 attachment_removed(u64 address) {
    for (Attachment& a : g_attachments) {
        if (a.address.load(std::memory_order_acquire) != address) continue;
        const u64 size = a.size;
        u64 expected = address;
        if (a.address.compare_exchange_strong(expected, 0, std::memory_order_relaxed)) return size;
    }
    return 0;
}
} // namespace

FRT_EXPORT int semop(int id, struct sembuf* ops, size_t n) {
    return semaphore_operations(FRT_CALLER(), id, ops, n, [&] { return REAL(semop)(id, ops, n); });
}
FRT_EXPORT int semtimedop(int id, struct sembuf* ops, size_t n, const struct timespec* timeout) {
    return semaphore_operations(FRT_CALLER(), id, ops, n,
                                [&] { return REAL(semtimedop)(id, ops, n, timeout); });
}

// semctl's fourth argument is a union semun (the caller defines it): one register.
FRT_EXPORT int semctl(int id, int number, int command, ...) {
    va_list ap;
    va_start(ap, command);
    const unsigned long arg = va_arg(ap, unsigned long);
    va_end(ap);
    const u64 pc = FRT_CALLER();
    auto* values = reinterpret_cast<unsigned short*>(arg);
    const u64 all = command == SETALL || command == GETALL ? semaphores_in(id) : 0;
    if (command == SETVAL) semaphore_values_set(pc, id, static_cast<u64>(number), 1, nullptr);
    if (command == SETALL) semaphore_values_set(pc, id, 0, all, values);
    const int r = REAL(semctl)(id, number, command, arg);
    if (r < 0) return r;
    const int saved_errno = errno;
    if (command == GETVAL) semaphore_values_got(pc, id, static_cast<u64>(number), 1, nullptr);
    if (command == GETALL) semaphore_values_got(pc, id, 0, all, values);
    errno = saved_errno;
    return r;
}

FRT_EXPORT int msgsnd(int id, const void* message, size_t size, int flags) {
    const u64 pc = FRT_CALLER();
    if (InterceptorScope scope(program_call(pc)); scope && message != nullptr) {
        library_access(scope.thread(), pc, message, sizeof(long) + size, false);
        const long type = *static_cast<const long*>(message);
        g_ipc.release(scope.thread(), ipc_key(kMessages, id, static_cast<u64>(type)), pc);
    }
    return REAL(msgsnd)(id, message, size, flags);
}

FRT_EXPORT ssize_t msgrcv(int id, void* message, size_t size, long type, int flags) {
    const u64 pc = FRT_CALLER();
    const ssize_t r = REAL(msgrcv)(id, message, size, type, flags);
    if (r < 0) return r;
    const int saved_errno = errno;
    if (InterceptorScope scope(program_call(pc)); scope) {
        library_access(scope.thread(), pc, message, sizeof(long) + static_cast<u64>(r), true);
        const long received = *static_cast<const long*>(message);
        g_ipc.acquire(scope.thread(), ipc_key(kMessages, id, static_cast<u64>(received)), pc);
    }
    errno = saved_errno;
    return r;
}

FRT_EXPORT void* shmat(int id, const void* address, int flags) {
    void* p = REAL(shmat)(id, address, flags);
    if (p == reinterpret_cast<void*>(-1)) return p;
    const int saved_errno = errno;
    struct shmid_ds ds;
    if (REAL(shmctl)(id, IPC_STAT, &ds) == 0) {
        const u64 page = static_cast<u64>(getpagesize());
        const u64 size = (static_cast<u64>(ds.shm_segsz) + page - 1) / page * page;
        attachment_made(reinterpret_cast<u64>(p), size);
        mapped(p, size, FRT_CALLER());
    }
    errno = saved_errno;
    return p;
}

FRT_EXPORT int shmdt(const void* address) {
    if (const u64 size = attachment_removed(reinterpret_cast<u64>(address)); size != 0)
        unmapping(reinterpret_cast<u64>(address), size, true, FRT_CALLER());
    return REAL(shmdt)(address);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(semop)
FRT_INTERCEPTOR_ALIAS(semtimedop)
FRT_INTERCEPTOR_ALIAS(semctl)
FRT_INTERCEPTOR_ALIAS(msgsnd)
FRT_INTERCEPTOR_ALIAS(msgrcv)
FRT_INTERCEPTOR_ALIAS(shmat)
FRT_INTERCEPTOR_ALIAS(shmdt)
