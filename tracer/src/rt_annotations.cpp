// The ThreadSanitizer annotation API that programs and libraries call directly, so that they
// link and mean with firstrace what they mean with ThreadSanitizer:
//
//   dynamic annotations     AnnotateHappensBefore/After (and the CondVar, PCQ and WTF forms):
//                           Release (merging, see release_now) / Acquire on kObjAnnotation at
//                           the address; AnnotateRWLock*: the rwlock model of
//                           rt_interceptors.cpp on the annotated address; AnnotateBenignRace
//                           (Sized) and AnnotateExpectRace: a kRecBenign record, the reader
//                           drops those bytes from every access; AnnotateIgnoreReads/Writes
//                           Begin/End: accesses of that kind are not recorded; AnnotateIgnore
//                           SyncBegin/End: no synchronization is recorded; AnnotateThreadName.
//   __tsan_acquire/release  as AnnotateHappensAfter/Before.
//   __tsan_mutex_*          custom mutexes: post_lock = Acquire, pre_unlock = Release (the
//                           rwlock model, read_lock flag = read side); the mutex's own code
//                           between pre and post is ignored (accesses and sync), as in TSan,
//                           except inside pre/post_divert.
//   fibers                  a fiber is a logical process (kRecProcess kind 1 when first
//                           entered, kRecSwitch after): switching to fiber f is a Release on
//                           kObjFiber f in the current process and an Acquire on it in f
//                           (unless __tsan_switch_to_fiber_no_sync).
//   __sanitizer_unaligned_* unaligned loads/stores: an access of 2, 4 or 8 bytes.
//   __tsan_external_*       accesses to an object of a registered type (1 byte at the address).
//   __tsan_testonly_barrier_*  the invisible barrier of LLVM's ThreadSanitizer tests: waits
//                           with a futex inside the runtime and records nothing.
#include <dlfcn.h>
#include <link.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "rt_library_call.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

// The runtime's own code (from_runtime): from the load address of this library's segments.
namespace frt {
u64 g_runtime_lo = 0, g_runtime_hi = 0;
}
namespace {
int find_runtime(struct dl_phdr_info* info, size_t, void*) {
    const u64 self = reinterpret_cast<u64>(&find_runtime);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        const u64 lo = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && self >= lo && self < lo + ph.p_memsz) {
            g_runtime_lo = lo;
            g_runtime_hi = lo + ph.p_memsz;
            return 1;
        }
    }
    return 0;
}
__attribute__((constructor(101))) void locate_runtime() {
    dl_iterate_phdr(find_runtime, nullptr);
}
} // namespace

namespace {

// --- happens-before -------------------------------------------------------------------------

void happens_before(const volatile void* addr, u64 pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    release_now(t, fmt::kObjAnnotation, const_cast<const void*>(addr), pc, true);
}

void happens_after(const volatile void* addr, u64 pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    const void* a = const_cast<const void*>(addr);
    if (find_object(fmt::kObjAnnotation, a) != nullptr) acquire_now(t, fmt::kObjAnnotation, a, pc);
}

// --- ignore regions -------------------------------------------------------------------------

void update_ignore(ThreadState* t) {
    const u8 kinds = static_cast<u8>((t->ignore_reads_depth ? fmt::kRead : 0) |
                                     (t->ignore_writes_depth ? fmt::kWrite : 0));
    if (kinds != t->ignore_access_kinds) {
        // Close the event: its sites leave the table, so that the access fast path (which
        // only extends ranges of sites already in the table) sees none of them.
        close_computation(t, now());
        t->ignore_access_kinds = kinds;
    }
}

void ignore_accesses(bool reads, bool writes, int delta) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    auto step = [delta](u32& depth) {
        if (delta > 0)
            ++depth;
        else if (depth > 0)
            --depth;
    };
    if (reads) step(t->ignore_reads_depth);
    if (writes) step(t->ignore_writes_depth);
    update_ignore(t);
}

void ignore_sync(int delta) {
    ThreadState* t = tls_state;
    if (t == nullptr) return;
    if (delta > 0)
        ++t->ignore_sync_depth;
    else if (t->ignore_sync_depth > 0)
        --t->ignore_sync_depth;
}

// --- locks described by the program ---------------------------------------------------------

void lock_acquired(const void* m, bool write, u64 pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    acquire_now(t, fmt::kObjRwLock, m, pc);
    if (write) acquire_now(t, fmt::kObjRwLockReaders, m, pc);
}

void lock_released(const void* m, bool write, u64 pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    if (write)
        release_now(t, fmt::kObjRwLock, m, pc, false);
    else
        release_now(t, fmt::kObjRwLockReaders, m, pc, true);
}

void benign(const volatile void* addr, u64 size) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    emit_benign(t, reinterpret_cast<u64>(addr), size);
}

} // namespace

// --- dynamic annotations (valgrind/dynamic_annotations.h, as ThreadSanitizer implements them) --

FRT_EXPORT void AnnotateHappensBefore(const char*, int, const volatile void* addr) {
    happens_before(addr, FRT_CALLER());
}
FRT_EXPORT void AnnotateHappensAfter(const char*, int, const volatile void* addr) {
    happens_after(addr, FRT_CALLER());
}
FRT_EXPORT void WTFAnnotateHappensBefore(const char*, int, const volatile void* addr) {
    happens_before(addr, FRT_CALLER());
}
FRT_EXPORT void WTFAnnotateHappensAfter(const char*, int, const volatile void* addr) {
    happens_after(addr, FRT_CALLER());
}
FRT_EXPORT void AnnotateCondVarSignal(const char*, int, const volatile void* cv) {
    happens_before(cv, FRT_CALLER());
}
FRT_EXPORT void AnnotateCondVarSignalAll(const char*, int, const volatile void* cv) {
    happens_before(cv, FRT_CALLER());
}
FRT_EXPORT void AnnotateCondVarWait(const char*, int, const volatile void* cv,
                                    const volatile void*) {
    happens_after(cv, FRT_CALLER());
}
FRT_EXPORT void AnnotatePCQCreate(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotatePCQDestroy(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotatePCQPut(const char*, int, const volatile void* pcq) {
    happens_before(pcq, FRT_CALLER());
}
FRT_EXPORT void AnnotatePCQGet(const char*, int, const volatile void* pcq) {
    happens_after(pcq, FRT_CALLER());
}

FRT_EXPORT void AnnotateRWLockCreate(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateRWLockCreateStatic(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateRWLockDestroy(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateRWLockAcquired(const char*, int, const volatile void* m, long is_w) {
    lock_acquired(const_cast<const void*>(m), is_w != 0, FRT_CALLER());
}
FRT_EXPORT void AnnotateRWLockReleased(const char*, int, const volatile void* m, long is_w) {
    lock_released(const_cast<const void*>(m), is_w != 0, FRT_CALLER());
}
FRT_EXPORT void AnnotateMutexIsUsedAsCondVar(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateMutexIsNotPHB(const char*, int, const volatile void*) {}

FRT_EXPORT void AnnotateBenignRaceSized(const char*, int, const volatile void* addr,
                                        unsigned long size, const char*) {
    benign(addr, size);
}
FRT_EXPORT void AnnotateBenignRace(const char*, int, const volatile void* addr, const char*) {
    benign(addr, 1);
}
FRT_EXPORT void WTFAnnotateBenignRaceSized(const char*, int, const volatile void* addr,
                                           unsigned long size, const char*) {
    benign(addr, size);
}
// An expected race is one the program's test knows about: ThreadSanitizer does not report it.
FRT_EXPORT void AnnotateExpectRace(const char*, int, const volatile void* addr, const char*) {
    benign(addr, 1);
}
FRT_EXPORT void AnnotateFlushExpectedRaces(const char*, int) {}

FRT_EXPORT void AnnotateIgnoreReadsBegin(const char*, int) {
    ignore_accesses(true, false, +1);
}
FRT_EXPORT void AnnotateIgnoreReadsEnd(const char*, int) {
    ignore_accesses(true, false, -1);
}
FRT_EXPORT void AnnotateIgnoreWritesBegin(const char*, int) {
    ignore_accesses(false, true, +1);
}
FRT_EXPORT void AnnotateIgnoreWritesEnd(const char*, int) {
    ignore_accesses(false, true, -1);
}
FRT_EXPORT void AnnotateIgnoreSyncBegin(const char*, int) {
    ignore_sync(+1);
}
FRT_EXPORT void AnnotateIgnoreSyncEnd(const char*, int) {
    ignore_sync(-1);
}
FRT_EXPORT void __tsan_ignore_thread_begin() {
    ignore_accesses(true, true, +1);
    ignore_sync(+1);
}
FRT_EXPORT void __tsan_ignore_thread_end() {
    ignore_accesses(true, true, -1);
    ignore_sync(-1);
}

FRT_EXPORT void AnnotateThreadName(const char*, int, const char* name) {
    if (name == nullptr) return;
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    emit_name(t, t->pid, name);
}

// Annotations with nothing to record here.
FRT_EXPORT void AnnotateNewMemory(const char*, int, const volatile void*, unsigned long) {}
FRT_EXPORT void AnnotatePublishMemoryRange(const char*, int, const volatile void*, unsigned long) {}
FRT_EXPORT void AnnotateUnpublishMemoryRange(const char*, int, const volatile void*,
                                             unsigned long) {}
FRT_EXPORT void AnnotateTraceMemory(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateFlushState(const char*, int) {}
FRT_EXPORT void AnnotateNoOp(const char*, int, const volatile void*) {}
FRT_EXPORT void AnnotateEnableRaceDetection(const char*, int, int) {}
FRT_EXPORT void AnnotateMemoryIsInitialized(const char*, int, const volatile void*, unsigned long) {
}
FRT_EXPORT void AnnotateMemoryIsUninitialized(const char*, int, const volatile void*,
                                              unsigned long) {}
FRT_EXPORT int RunningOnValgrind() {
    return 0;
}
FRT_EXPORT double ValgrindSlowdown() {
    return 1.0;
}
FRT_EXPORT const char* ThreadSanitizerQuery(const char*) {
    return "0";
}

// --- __tsan_acquire / __tsan_release ---------------------------------------------------------

FRT_EXPORT void __tsan_acquire(void* addr) {
    happens_after(addr, FRT_CALLER());
}
FRT_EXPORT void __tsan_release(void* addr) {
    happens_before(addr, FRT_CALLER());
}

// --- custom mutexes (sanitizer/tsan_interface.h) ----------------------------------------------

namespace {
constexpr unsigned kMutexReadLock = 1u << 3;
constexpr unsigned kMutexTryLockFailed = 1u << 5;

// The mutex implementation between pre and post is not the program's data accesses nor its
// synchronization.
void mutex_internals_begin() {
    ignore_accesses(true, true, +1);
    ignore_sync(+1);
}
void mutex_internals_end() {
    ignore_sync(-1);
    ignore_accesses(true, true, -1);
}
} // namespace

FRT_EXPORT void __tsan_mutex_create(void*, unsigned) {}
FRT_EXPORT void __tsan_mutex_destroy(void*, unsigned) {}
FRT_EXPORT void __tsan_mutex_pre_lock(void*, unsigned) {
    mutex_internals_begin();
}
FRT_EXPORT void __tsan_mutex_post_lock(void* m, unsigned flags, int) {
    mutex_internals_end();
    if (!(flags & kMutexTryLockFailed)) lock_acquired(m, !(flags & kMutexReadLock), FRT_CALLER());
}
FRT_EXPORT int __tsan_mutex_pre_unlock(void* m, unsigned flags) {
    lock_released(m, !(flags & kMutexReadLock), FRT_CALLER());
    mutex_internals_begin();
    return 0;
}
FRT_EXPORT void __tsan_mutex_post_unlock(void*, unsigned) {
    mutex_internals_end();
}
FRT_EXPORT void __tsan_mutex_pre_signal(void*, unsigned) {
    mutex_internals_begin();
}
FRT_EXPORT void __tsan_mutex_post_signal(void*, unsigned) {
    mutex_internals_end();
}
FRT_EXPORT void __tsan_mutex_pre_divert(void*, unsigned) {
    mutex_internals_end();
}
FRT_EXPORT void __tsan_mutex_post_divert(void*, unsigned) {
    mutex_internals_begin();
}
// LLVM 17's check that a context (a signal handler, a callback) runs holding no mutex: a misuse
// report of ThreadSanitizer's own, not a race. Defined so that programs using it build and run;
// firstrace reports races only, so it checks nothing (README "What is not modelled").
FRT_EXPORT void __tsan_check_no_mutexes_held() {}

// --- fibers ------------------------------------------------------------------------------------

namespace {
struct Fiber {
    u32 pid;
    bool declared;
    Fiber* next_free;
};
std::atomic<u32> g_fiber_lock{0};
Fiber* g_free_fibers = nullptr;
// The fiber this thread runs (null: its own, not asked for yet) and the thread's own fiber.
__thread Fiber* tls_fiber __attribute__((tls_model("initial-exec"))) = nullptr;
__thread Fiber tls_thread_fiber __attribute__((tls_model("initial-exec")));

Fiber* new_fiber() {
    spin_lock(g_fiber_lock);
    Fiber* f = g_free_fibers;
    if (f != nullptr) g_free_fibers = f->next_free;
    spin_unlock(g_fiber_lock);
    if (f != nullptr) return f;
    void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return nullptr;
    auto* arr = static_cast<Fiber*>(page);
    const std::size_t n = 4096 / sizeof(Fiber);
    spin_lock(g_fiber_lock);
    for (std::size_t i = 1; i < n; ++i) {
        arr[i].next_free = g_free_fibers;
        g_free_fibers = &arr[i];
    }
    spin_unlock(g_fiber_lock);
    return &arr[0];
}

Fiber* current_fiber(ThreadState* t) {
    if (tls_fiber == nullptr) {
        tls_thread_fiber.pid = t != nullptr ? t->pid : kNoPid;
        tls_thread_fiber.declared = true;
        tls_fiber = &tls_thread_fiber;
    }
    return tls_fiber;
}
} // namespace

FRT_EXPORT void* __tsan_get_current_fiber() {
    return current_fiber(tls_state);
}

FRT_EXPORT void* __tsan_create_fiber(unsigned) {
    Fiber* f = new_fiber();
    if (f == nullptr) return nullptr;
    f->pid = g_state.load() == RtState::Ready ? new_pid() : kNoPid;
    f->declared = false;
    return f;
}

FRT_EXPORT void __tsan_destroy_fiber(void* fiber) {
    auto* f = static_cast<Fiber*>(fiber);
    if (f == nullptr || f == &tls_thread_fiber) return;
    if (InterceptorScope scope;
        scope && f->declared && f->pid != kNoPid && f != current_fiber(scope.thread())) {
        // the fiber's trace ends here: its End record, then back to the current process
        ThreadState* t = scope.thread();
        const u32 current = t->pid;
        emit_switch(t, f->pid);
        emit_end(t, now());
        emit_switch(t, current);
    }
    spin_lock(g_fiber_lock);
    f->next_free = g_free_fibers;
    g_free_fibers = f;
    spin_unlock(g_fiber_lock);
}

FRT_EXPORT void __tsan_switch_to_fiber(void* fiber, unsigned flags) {
    auto* f = static_cast<Fiber*>(fiber);
    InterceptorScope scope;
    if (!scope || f == nullptr) {
        tls_fiber = f;
        return;
    }
    ThreadState* t = scope.thread();
    Fiber* from = current_fiber(t);
    if (f == from || f->pid == kNoPid) return;
    const bool sync = !(flags & 1u); // __tsan_switch_to_fiber_no_sync
    const u64 pc = FRT_CALLER();
    if (sync) release_now(t, fmt::kObjFiber, f, pc, false);
    close_computation(t, now());
    if (f->declared)
        emit_switch(t, f->pid);
    else
        emit_process(t, f->pid, t->pid, firstrace::format::kProcTask);
    f->declared = true;
    tls_fiber = f;
    if (sync) acquire_now(t, fmt::kObjFiber, f, pc);
}

FRT_EXPORT void __tsan_set_fiber_name(void* fiber, const char* name) {
    auto* f = static_cast<Fiber*>(fiber);
    if (f == nullptr || name == nullptr || f->pid == kNoPid) return;
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    emit_name(t, f->pid, name);
}

// --- unaligned accesses, external objects ------------------------------------------------------

#define FRT_UNALIGNED(bits)                                                                        \
    FRT_EXPORT u##bits __sanitizer_unaligned_load##bits(const void* p) {                           \
        on_access(FRT_CALLER(), reinterpret_cast<u64>(p), bits / 8, fmt::kRead);                   \
        u##bits v;                                                                                 \
        std::memcpy(&v, p, sizeof v);                                                              \
        return v;                                                                                  \
    }                                                                                              \
    FRT_EXPORT void __sanitizer_unaligned_store##bits(void* p, u##bits v) {                        \
        on_access(FRT_CALLER(), reinterpret_cast<u64>(p), bits / 8, fmt::kWrite);                  \
        std::memcpy(p, &v, sizeof v);                                                              \
    }
using u16 = std::uint16_t;
FRT_UNALIGNED(16)
FRT_UNALIGNED(32)
FRT_UNALIGNED(64)

namespace {
std::atomic<u64> g_next_tag{1};
}
FRT_EXPORT void* __tsan_external_register_tag(const char*) {
    return reinterpret_cast<void*>(g_next_tag.fetch_add(1));
}
FRT_EXPORT void __tsan_external_register_header(void*, const char*) {}
FRT_EXPORT void __tsan_external_assign_tag(void*, void*) {}
FRT_EXPORT void __tsan_external_read(void* addr, void* caller_pc, void*) {
    on_access(reinterpret_cast<u64>(caller_pc), reinterpret_cast<u64>(addr), 1, fmt::kRead);
}
FRT_EXPORT void __tsan_external_write(void* addr, void* caller_pc, void*) {
    on_access(reinterpret_cast<u64>(caller_pc), reinterpret_cast<u64>(addr), 1, fmt::kWrite);
}
FRT_EXPORT void __tsan_flush_memory() {}

// Report-path settings of the sanitizer common interface: firstrace writes a trace instead.
FRT_EXPORT void __sanitizer_set_report_path(const char*) {}
FRT_EXPORT void __sanitizer_set_report_fd(void*) {}
FRT_EXPORT void __sanitizer_print_stack_trace() {}
FRT_EXPORT void __sanitizer_set_death_callback(void (*)(void)) {}
FRT_EXPORT const char* __sanitizer_get_report_path() {
    return nullptr; // no report file: the trace directory is firstrace record's
}
FRT_EXPORT void __sanitizer_sandbox_on_notify(void*) {}
FRT_EXPORT void __sanitizer_print_memory_profile(size_t, size_t) {}
FRT_EXPORT void __tsan_on_thread_idle() {}
// A program's own error summary goes to stderr, as the sanitizers print it.
FRT_EXPORT void __sanitizer_report_error_summary(const char* summary) {
    if (summary == nullptr) return;
    const char prefix[] = "SUMMARY: ";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, summary, string_length(summary));
    (void)!write(2, "\n", 1);
}
// The first caller (a crash handler) gets 1, every later one 0.
FRT_EXPORT int __sanitizer_acquire_crash_state() {
    static std::atomic<int> taken{0};
    return taken.exchange(1) == 0 ? 1 : 0;
}
// The module containing pc and the offset in it, as the sanitizers' symbolizer gives them.
FRT_EXPORT int __sanitizer_get_module_and_offset_for_pc(void* pc, char* module_path,
                                                        size_t module_path_len, void** pc_offset) {
    Dl_info info;
    if (dladdr(pc, &info) == 0 || info.dli_fname == nullptr) return 0;
    if (module_path != nullptr && module_path_len != 0) {
        const size_t n = string_length(info.dli_fname);
        const size_t kept = n < module_path_len - 1 ? n : module_path_len - 1;
        for (size_t i = 0; i < kept; ++i)
            module_path[i] = info.dli_fname[i];
        module_path[kept] = '\0';
    }
    if (pc_offset != nullptr)
        *pc_offset = reinterpret_cast<void*>(reinterpret_cast<u64>(pc) -
                                             reinterpret_cast<u64>(info.dli_fbase));
    return 1;
}
// Symbolization is the analyzer's (after the run): the program gets the bare address.
FRT_EXPORT void __sanitizer_symbolize_pc(void* pc, const char*, char* out, size_t out_size) {
    if (out == nullptr || out_size == 0) return;
    char text[2 + 16 + 1] = {'0', 'x'};
    u64 v = reinterpret_cast<u64>(pc);
    int digits = 0;
    char reversed[16];
    do {
        reversed[digits++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v != 0);
    for (int i = 0; i < digits; ++i)
        text[2 + i] = reversed[digits - 1 - i];
    const size_t n = 2 + static_cast<size_t>(digits);
    const size_t kept = n < out_size - 1 ? n : out_size - 1;
    for (size_t i = 0; i < kept; ++i)
        out[i] = text[i];
    out[kept] = '\0';
}
FRT_EXPORT void __sanitizer_symbolize_global(void*, const char*, char* out, size_t out_size) {
    if (out != nullptr && out_size != 0) out[0] = '\0';
}

// The report-debugging API (tsan_interface.h's __tsan_get_report_* family) is for a program's
// __tsan_on_report callback while ThreadSanitizer reports a race. firstrace finds races after
// the run: there is never a current report, and each query says so (0: no data).
FRT_EXPORT void* __tsan_get_current_report() {
    return nullptr;
}
FRT_EXPORT int __tsan_get_report_data(void*, const char**, int*, int*, int*, int*, int*, int*, int*,
                                      int*, void**, unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_tag(void*, unsigned long*) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_stack(void*, unsigned long, void**, unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_mop(void*, unsigned long, int*, void**, int*, int*, void**,
                                     unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_loc(void*, unsigned long, const char**, void**, void**, int*, int*,
                                     int*, void**, unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_loc_object_type(void*, unsigned long, const char**) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_mutex(void*, unsigned long, unsigned long*, void**, int*, void**,
                                       unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_thread(void*, unsigned long, int*, unsigned long*, const char**,
                                        int*, void**, unsigned long) {
    return 0;
}
FRT_EXPORT int __tsan_get_report_unique_tid(void*, unsigned long, int*) {
    return 0;
}
FRT_EXPORT const char* __tsan_locate_address(unsigned long, char*, unsigned long, unsigned long*,
                                             unsigned long*) {
    return "";
}
FRT_EXPORT int __tsan_get_alloc_stack(unsigned long, void**, unsigned long, int*, unsigned long*) {
    return 0;
}

// --- the invisible barrier of the LLVM ThreadSanitizer tests ---------------------------------
//
// test.h of compiler-rt's tsan tests declares these to stage interleavings without creating
// happens-before; the encoding is TSan's (LLVM 14, tsan_rtl.cpp): the count in the low 10 bits,
// arrivals above (8 bits, as once here, cut lots_of_threads' 301 threads to 255: the barrier
// let 255 through and the rest, main included, waited for a second round that never came).

namespace {
constexpr u32 kBarrierCountBits = 10;
constexpr u32 kBarrierMaxCount = (1u << kBarrierCountBits) - 1;
constexpr u32 kBarrierArrival = 1u << kBarrierCountBits;
u32 barrier_epoch(u32 value) {
    const u32 count = value & kBarrierMaxCount;
    return count ? (value >> kBarrierCountBits) / count : 0;
}
long futex(std::atomic<u32>* addr, int op, u32 value) {
    return system_call(SYS_futex, reinterpret_cast<u32*>(addr), op, value, nullptr, nullptr, 0);
}
} // namespace

// TSan dies beyond 1023 threads; here the count is capped (the test then cannot pass, but the
// runtime does not end the program).
FRT_EXPORT void __tsan_testonly_barrier_init(u32* barrier, u32 count) {
    if (count > kBarrierMaxCount) count = kBarrierMaxCount;
    reinterpret_cast<std::atomic<u32>*>(barrier)->store(count, std::memory_order_relaxed);
}

FRT_EXPORT void __tsan_testonly_barrier_wait(u32* barrier) {
    auto* b = reinterpret_cast<std::atomic<u32>*>(barrier);
    const u32 old = b->fetch_add(kBarrierArrival, std::memory_order_relaxed);
    const u32 epoch = barrier_epoch(old);
    if (barrier_epoch(old + kBarrierArrival) != epoch) {
        futex(b, FUTEX_WAKE_PRIVATE, 1u << 30);
        return;
    }
    for (;;) {
        const u32 cur = b->load(std::memory_order_relaxed);
        if (barrier_epoch(cur) != epoch) return;
        futex(b, FUTEX_WAIT_PRIVATE, cur);
    }
}

FRT_EXPORT unsigned long __tsan_testonly_shadow_stack_current_size() {
    ThreadState* t = tls_state;
    return t != nullptr ? t->depth : 0;
}
