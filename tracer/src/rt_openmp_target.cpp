// gcc's target entry points run on the host (OpenMP 5.1 2.14: with no device, a target region
// executes on the host device). gcc-compiled OpenMP code is linked against LLVM's libomp
// (firstrace-cc -fopenmp), which in version 14 lacks the GNU entry points of OpenMP 4.5+
// target constructs; the firstrace runtime supplies them, doing what libgomp's host fallback
// does (libgomp target.c, teams.c), so that one OMPT model (rt_openmp.cpp) serves both
// compilers:
//
//   GOMP_target_ext          copies the firstprivate data (the region sees its own copies) and
//                            runs the region's function on this thread. With `nowait` the
//                            region is a deferred target task, with `depend` an undeferred one
//                            that waits for its dependences: both are created through
//                            GOMP_task (so libomp reports them and their dependences as tasks),
//                            carrying a copy of the map array and of the firstprivate data.
//   GOMP_teams4              the league: libgomp's host fallback runs the teams one after the
//                            other on the encountering thread; each team is an implicit task
//                            of its own (rt_openmp.cpp, omp_host_league_*), so conflicts
//                            between teams are races whatever the order they ran in.
//   omp_get_team_num,        the running team of such a league (else libomp's answer).
//   omp_get_num_teams
//   target data / update /   map clauses move nothing on the host; with `depend` (update,
//   enter/exit data          enter/exit data) they are an empty target task with those
//                            dependences, deferred with `nowait`.
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "rt_internal.hpp"
#include "rt_openmp.hpp"
#include "rt_real.hpp"
#include "rt_system.hpp"

// rt_openmp.cpp: GOMP_task as the program calls it (marks an undeferred task as the program's).
extern "C" void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                          long arg_align, bool if_clause, unsigned flags, void** depend,
                          int priority, void* detach);

using namespace frt;

namespace {

// gomp-constants.h (GCC 12): map kinds and flags of the GNU offloading ABI.
inline constexpr unsigned kMapFirstprivate = 0x0c;   // GOMP_MAP_FIRSTPRIVATE
inline constexpr unsigned kTargetFlagNowait = 1u;    // GOMP_TARGET_FLAG_NOWAIT
inline constexpr unsigned kTaskFlagDepend = 8u;      // GOMP_TASK_FLAG_DEPEND
inline constexpr std::size_t kMaxInlineBlock = 4096; // firstprivate bytes copied on the stack

FRT_DECLARE_REAL_TYPED(omp_get_team_num, int (*)());
FRT_DECLARE_REAL_TYPED(omp_get_num_teams, int (*)());
FRT_DECLARE_REAL_TYPED(omp_get_num_threads, int (*)());

// The frame of the running target region's caller: what lies below it on this stack (the
// region's frames) is private to each team of a league the region forms.
__thread u64 tls_region_frame __attribute__((tls_model("initial-exec"))) = 0;

bool is_firstprivate(unsigned short kind) {
    return (kind & 0xffu) == kMapFirstprivate;
}
std::size_t kind_align(unsigned short kind) {
    return std::size_t{1} << (kind >> 8);
}
std::size_t align_up(std::size_t n, std::size_t a) {
    return (n + a - 1) & ~(a - 1);
}

// The bytes the firstprivate copies take from offset `start` on, each aligned as its kind says.
std::size_t firstprivate_end(std::size_t start, std::size_t mapnum, void* const* hostaddrs,
                             const std::size_t* sizes, const unsigned short* kinds,
                             std::size_t* max_align) {
    std::size_t end = start;
    for (std::size_t i = 0; i < mapnum; ++i) {
        if (!is_firstprivate(kinds[i]) || hostaddrs[i] == nullptr) continue;
        const std::size_t a = kind_align(kinds[i]);
        if (a > *max_align) *max_align = a;
        end = align_up(end, a) + sizes[i];
    }
    return end;
}

// Copies the firstprivate data to `block` + `start` on, in the layout firstprivate_end
// measured; hostaddrs[i] gets where each copy went.
void copy_firstprivate(char* block, std::size_t start, std::size_t mapnum, void** hostaddrs,
                       const std::size_t* sizes, const unsigned short* kinds) {
    std::size_t at = start;
    for (std::size_t i = 0; i < mapnum; ++i) {
        if (!is_firstprivate(kinds[i]) || hostaddrs[i] == nullptr) continue;
        at = align_up(at, kind_align(kinds[i]));
        __builtin_memcpy(block + at, hostaddrs[i], sizes[i]);
        hostaddrs[i] = block + at;
        at += sizes[i];
    }
}

__attribute__((noinline)) void run_region(void (*fn)(void*), void** hostaddrs) {
    const u64 saved = tls_region_frame;
    tls_region_frame = reinterpret_cast<u64>(__builtin_frame_address(0));
    fn(hostaddrs);
    tls_region_frame = saved;
}

// A target task's argument block (GOMP_task copies it into the task): the region's function,
// the map array (firstprivate entries as offsets into the block) and the firstprivate data.
struct TargetBlock {
    void (*fn)(void*);
    std::size_t mapnum;
    std::uint64_t firstprivate_mask; // entries below 64 that are offsets (the rest: addresses)
    // followed by void* hostaddrs[mapnum], then the firstprivate copies
};

void run_target_task(void* arg) {
    auto* b = static_cast<TargetBlock*>(arg);
    auto** hostaddrs = reinterpret_cast<void**>(b + 1);
    for (std::size_t i = 0; i < b->mapnum && i < 64; ++i)
        if (b->firstprivate_mask & (std::uint64_t{1} << i))
            hostaddrs[i] = static_cast<char*>(arg) + reinterpret_cast<std::uintptr_t>(hostaddrs[i]);
    if (b->fn != nullptr) run_region(b->fn, hostaddrs);
}

// Creates the target task (deferred unless `undeferred`) through libomp's GOMP_task.
void create_target_task(void (*fn)(void*), std::size_t mapnum, void** hostaddrs,
                        const std::size_t* sizes, const unsigned short* kinds, bool undeferred,
                        void** depend) {
    std::size_t align = alignof(TargetBlock);
    const std::size_t maps = sizeof(TargetBlock) + mapnum * sizeof(void*);
    const std::size_t size = firstprivate_end(maps, mapnum, hostaddrs, sizes, kinds, &align);
    // The block lives on this stack for small regions (GOMP_task copies it), else in an
    // anonymous mapping (no malloc of the program's from here).
    alignas(16) char local[kMaxInlineBlock];
    char* block = local;
    const bool mapped = size > sizeof(local) || align > 16;
    if (mapped) {
        block = static_cast<char*>(map_anonymous(size + align));
        if (block == nullptr) return;
    }
    auto* b = reinterpret_cast<TargetBlock*>(block);
    b->fn = fn;
    b->mapnum = mapnum;
    b->firstprivate_mask = 0;
    auto** copy = reinterpret_cast<void**>(b + 1);
    for (std::size_t i = 0; i < mapnum; ++i)
        copy[i] = hostaddrs[i];
    copy_firstprivate(block, maps, mapnum, copy, sizes, kinds);
    for (std::size_t i = 0; i < mapnum && i < 64; ++i)
        if (is_firstprivate(kinds[i]) && hostaddrs[i] != nullptr) {
            copy[i] = reinterpret_cast<void*>(static_cast<char*>(copy[i]) - block);
            b->firstprivate_mask |= std::uint64_t{1} << i;
        }
    GOMP_task(run_target_task, block, nullptr, static_cast<long>(size), static_cast<long>(align),
              !undeferred, depend != nullptr ? kTaskFlagDepend : 0u, depend, 0, nullptr);
    if (mapped) system_call(SYS_munmap, block, size + align);
}

void empty_task(void*) {}

// update / enter / exit data: nothing moves on the host; dependences still order the task.
void data_task(unsigned flags, void** depend) {
    if (depend == nullptr) return;
    char none = 0;
    GOMP_task(empty_task, &none, nullptr, 1, 1, (flags & kTargetFlagNowait) != 0, kTaskFlagDepend,
              depend, 0, nullptr);
}

// The OpenMP runtime initialises (and reports the initial task) on its first entry point.
void ensure_openmp_initialized() {
    if (auto real = REAL(omp_get_num_threads)) (void)real();
}

} // namespace

FRT_EXPORT void GOMP_target_ext(int, void (*fn)(void*), std::size_t mapnum, void** hostaddrs,
                                std::size_t* sizes, unsigned short* kinds, unsigned int flags,
                                void** depend, void**) {
    ensure_openmp_initialized();
    if ((flags & kTargetFlagNowait) != 0 || depend != nullptr) {
        create_target_task(fn, mapnum, hostaddrs, sizes, kinds, (flags & kTargetFlagNowait) == 0,
                           depend);
        return;
    }
    std::size_t align = 1;
    const std::size_t size = firstprivate_end(0, mapnum, hostaddrs, sizes, kinds, &align);
    if (size == 0) {
        run_region(fn, hostaddrs);
        return;
    }
    char* block = static_cast<char*>(__builtin_alloca(size + align - 1));
    block += align_up(reinterpret_cast<std::uintptr_t>(block), align) -
             reinterpret_cast<std::uintptr_t>(block);
    copy_firstprivate(block, 0, mapnum, hostaddrs, sizes, kinds);
    run_region(fn, hostaddrs);
}

FRT_EXPORT bool GOMP_teams4(unsigned int num_teams_low, unsigned int, unsigned int, bool first) {
    if (first) {
        omp_host_league_begin(num_teams_low == 0 ? 1 : num_teams_low, tls_region_frame,
                              __builtin_return_address(0));
        return true;
    }
    return omp_host_league_next(__builtin_return_address(0));
}

FRT_EXPORT int omp_get_team_num() {
    u32 number = 0, count = 0;
    if (omp_host_team(&number, &count)) return static_cast<int>(number);
    auto real = REAL(omp_get_team_num);
    return real != nullptr ? real() : 0;
}

FRT_EXPORT int omp_get_num_teams() {
    u32 number = 0, count = 0;
    if (omp_host_team(&number, &count)) return static_cast<int>(count);
    auto real = REAL(omp_get_num_teams);
    return real != nullptr ? real() : 1;
}

FRT_EXPORT void GOMP_target_data_ext(int, std::size_t, void**, std::size_t*, unsigned short*) {}

FRT_EXPORT void GOMP_target_update_ext(int, std::size_t, void**, std::size_t*, unsigned short*,
                                       unsigned int flags, void** depend) {
    data_task(flags, depend);
}

FRT_EXPORT void GOMP_target_enter_exit_data(int, std::size_t, void**, std::size_t*, unsigned short*,
                                            unsigned int flags, void** depend) {
    data_task(flags, depend);
}
