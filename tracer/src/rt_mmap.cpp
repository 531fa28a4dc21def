// Memory mappings: mmap and munmap, interposed.
//
//   munmap  a write of the whole range (an access unordered with the unmapping is a use after
//           unmap), then a Release on the unmapping's own object, and the range is marked with
//           its tag in the shadow of freed memory (rt_freed_memory.hpp) before the kernel can
//           hand it out again.
//   mmap    a new lifetime of the range (an Other of kObjMapping carrying it) where it overlaps
//           a dead thread's stack block: the kernel maps addresses only where nothing is mapped
//           any more, and glibc unmaps those blocks in its own code, unseen here
//           (rt_reuse_ordering.hpp; ThreadSanitizer resets a new mapping's shadow). Then the
//           mapping process acquires every unmapping (or heap free: glibc unmaps large
//           freed blocks) of another process that last gave back part of it. The kernel maps
//           an address range again only after its unmapping, so the new mapping's user never
//           races with the old one's. Then a write of the whole range: the mapping gives the
//           memory its contents (zeros, or the file's), so a use of it by another thread that
//           nothing orders after the mmap races with that initialization (as in
//           ThreadSanitizer, which counts a mapping as a write of its range). Inside the
//           annotation API's ignored writes (AnnotateIgnoreWritesBegin) it is no access.
//   madvise MADV_DONTNEED, MADV_REMOVE and MADV_FREE discard the range's contents (a private
//           anonymous mapping reads back zeros, a file mapping the file's, MADV_FREE either at
//           the kernel's choice): a write of the range when the call succeeds, as the mapping's
//           is; other advice changes no contents. (glibc's posix_madvise ignores
//           POSIX_MADV_DONTNEED: nothing to record.)
//   mremap  the part of the old range the call gives back (all of it with MREMAP_MAYMOVE: the
//           kernel may move the mapping, and an access by another thread that nothing orders
//           after the call may then hit the old address; the tail when it shrinks) is
//           unmapped as by munmap, before the call; MREMAP_DONTUNMAP leaves the old range
//           mapped without its contents: a write of it, no free. The part the call maps (the
//           whole new range with MREMAP_MAYMOVE, the extension when it grows in place) is
//           mapped as by mmap, after it: it acquires the unmappings of its bytes (a range
//           another thread unmapped, or a mremap moved away from) and is written.
// glibc's own mappings (malloc's large blocks, thread stacks) do not come through here: malloc
// records its blocks itself (rt_allocator.cpp), stacks are ordered by their threads' ends.
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_mmap.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_reuse_ordering.hpp"
#include "rt_sync_misuse.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
FRT_DECLARE_REAL(mmap);
FRT_DECLARE_REAL(mmap64);
FRT_DECLARE_REAL(munmap);
FRT_DECLARE_REAL(madvise);
using mremap_fn = void* (*)(void*, size_t, size_t, int, ...);
FRT_DECLARE_REAL_TYPED(mremap, mremap_fn);

// The runtime maps its own memory early (thread states), possibly before the real functions
// are resolved or while this thread is inside dlsym: then the system call itself.
template <class Real>
void* map_real(Real real, void* address, size_t length, int prot, int flags, int fd, off_t offset) {
    if (real != nullptr) return real(address, length, prot, flags, fd, offset);
    return reinterpret_cast<void*>(system_call(SYS_mmap, address, length, prot, flags, fd, offset));
}
} // namespace

void frt::mapped(void* p, size_t length, u64 pc) {
    if (p == MAP_FAILED || length == 0) return;
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    const u64 lo = reinterpret_cast<u64>(p);
    record_mapping(scope.thread(), lo, lo + length, pc);
    record_reuse(scope.thread(), lo, lo + length, pc);
    library_access(scope.thread(), pc, p, length, true);
}

FRT_EXPORT void* mmap(void* address, size_t length, int prot, int flags, int fd, off_t offset) {
    void* p = map_real(REAL(mmap), address, length, prot, flags, fd, offset);
    mapped(p, length, FRT_CALLER());
    return p;
}
// -D_FILE_OFFSET_BITS=64 programs call this name.
FRT_EXPORT void* mmap64(void* address, size_t length, int prot, int flags, int fd, off_t offset) {
    void* p = map_real(REAL(mmap64), address, length, prot, flags, fd, offset);
    mapped(p, length, FRT_CALLER());
    return p;
}

namespace {
// The kernel's checks (munmap(2): EINVAL for an address not page-aligned, a zero length, or a
// range beyond the user address space, 47 bits on x86-64 with 4-level paging, 56 with 5): a
// call that fails them unmaps nothing and is no access; a range that passes is whole pages.
constexpr u64 kUserAddressEnd = 1ull << 56;
bool unmaps_something(u64 lo, u64 length) {
    const u64 page = static_cast<u64>(getpagesize());
    if (length == 0 || lo % page != 0) return false;
    const u64 pages = (length + page - 1) / page * page;
    return pages >= length && lo + pages > lo && lo + pages <= kUserAddressEnd;
}
} // namespace

FRT_EXPORT int munmap(void* address, size_t length) {
    const u64 pc = FRT_CALLER();
    if (InterceptorScope scope(enter_call(pc));
        scope && unmaps_something(reinterpret_cast<u64>(address), length)) {
        ThreadState* t = scope.thread();
        const u64 lo = reinterpret_cast<u64>(address);
        freed_range_written(t, pc, lo, length); // rt_sync_misuse.hpp: blocked barriers aside
        record_free(t, lo, lo + length, pc);
    }
    if (auto real = REAL(munmap)) return real(address, length);
    return static_cast<int>(system_call(SYS_munmap, address, length));
}

void frt::unmapping(u64 lo, u64 length, bool free, u64 pc) {
    if (length == 0) return;
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    library_access(scope.thread(), pc, reinterpret_cast<void*>(lo), length, true);
    if (free) record_free(scope.thread(), lo, lo + length, pc);
}

FRT_EXPORT void* mremap(void* old_address, size_t old_size, size_t new_size, int flags, ...) {
    void* new_address = nullptr;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        new_address = va_arg(ap, void*);
        va_end(ap);
    }
    const u64 pc = FRT_CALLER();
    const u64 lo = reinterpret_cast<u64>(old_address);
    const bool may_move = (flags & MREMAP_MAYMOVE) != 0;
    if (unmaps_something(lo, old_size)) {
        if (may_move)
            unmapping(lo, old_size, (flags & MREMAP_DONTUNMAP) == 0, pc);
        else if (new_size < old_size)
            unmapping(lo + new_size, old_size - new_size, true, pc);
    }
    auto real = REAL(mremap);
    void* p = real != nullptr
                  ? real(old_address, old_size, new_size, flags, new_address)
                  : reinterpret_cast<void*>(system_call(SYS_mremap, old_address, old_size, new_size,
                                                        flags, new_address));
    if (p == MAP_FAILED) return p;
    if (may_move)
        mapped(p, new_size, pc);
    else if (new_size > old_size)
        mapped(static_cast<char*>(p) + old_size, new_size - old_size, pc);
    return p;
}

namespace {
bool discards_contents(int advice) {
    return advice == MADV_DONTNEED || advice == MADV_REMOVE || advice == MADV_FREE;
}
} // namespace

FRT_EXPORT int madvise(void* address, size_t length, int advice) {
    auto real = REAL(madvise);
    const int r = real != nullptr
                      ? real(address, length, advice)
                      : static_cast<int>(system_call(SYS_madvise, address, length, advice));
    if (r == 0 && length != 0 && discards_contents(advice)) {
        const u64 pc = FRT_CALLER();
        if (InterceptorScope scope(enter_call(pc)); scope)
            library_access(scope.thread(), pc, address, length, true);
    }
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(mmap)
FRT_INTERCEPTOR_ALIAS(mmap64)
FRT_INTERCEPTOR_ALIAS(munmap)
FRT_INTERCEPTOR_ALIAS(madvise)
FRT_INTERCEPTOR_ALIAS(mremap)
