// The thread registry: the runtime's processes and the OS threads that run them. Process ids
// are handed out in creation order; a thread's state (ThreadState: site table, shadow stack,
// record buffer, stream) is mmap'd once, recycled through a free list, and registered in a
// fixed table so that an exit or fork can reach every live thread; the thread map takes a
// pthread_t to its process id (joins, names).
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <new>

#include "rt_metadata.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_record_buffer.hpp"
#include "rt_spare_stream.hpp"
#include "rt_system.hpp"
#include "rt_thread_registry.hpp"

namespace frt {

__thread ThreadState* tls_state __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {
// Set once a thread has finished: instrumented code running after that is not traced.
__thread bool tls_done __attribute__((tls_model("initial-exec"))) = false;
std::atomic<u32> g_next_pid{0};
// Logical processes other than the first that may still run unordered with the caller: every id
// handed out after the first counts until its thread is joined (tasks, fibers and detached
// threads never are). Zero: the caller is the only process and everything any other did is
// ordered before it by joins (see alone()).
std::atomic<u32> g_unjoined{0};

constexpr u64 kThreadMapSize = 1ull << 16;
struct ThreadMapEntry {
    std::atomic<u64> key;
    std::atomic<u32> pid;
};
ThreadMapEntry* g_thread_map = nullptr;

std::atomic<ThreadState*> g_registry[kRegistrySize];
std::atomic<u32> g_state_lock{0};
ThreadState* g_free_states = nullptr;

ThreadState* allocate_state() {
    spin_lock(g_state_lock);
    ThreadState* t = g_free_states;
    if (t) g_free_states = t->next_free;
    spin_unlock(g_state_lock);
    if (t) return t;
    const std::size_t total = sizeof(ThreadState) + kTableSize * sizeof(Site) +
                              kMaxSites * sizeof(u32) + kDepotSize * sizeof(DepotSlot) +
                              kArenaSize + record_buffer_size() + 4096 * 7;
    char* mem = static_cast<char*>(map_anonymous(total));
    if (mem == nullptr) return nullptr;
    auto align = [](std::size_t v) { return (v + 63) & ~std::size_t{63}; };
    std::size_t off = align(sizeof(ThreadState));
    t = new (mem) ThreadState();
    t->table = reinterpret_cast<Site*>(mem + off);
    off = align(off + kTableSize * sizeof(Site));
    t->order = reinterpret_cast<u32*>(mem + off);
    off = align(off + kMaxSites * sizeof(u32));
    t->depot = reinterpret_cast<DepotSlot*>(mem + off);
    off = align(off + kDepotSize * sizeof(DepotSlot));
    t->arena = mem + off;
    off = align(off + kArenaSize);
    if (!record_buffer_attach(t, mem + off)) return nullptr;
    return t;
}

bool open_stream(ThreadState* t) {
    Line l;
    l.s(firstrace::format::kStreamPrefix).u(t->pid).s(firstrace::format::kStreamSuffix);
    const bool created =
        create_own_trace_file(t->fd, {trace_directory_fd, l.c_str(), 0, false}, &t->io_lock) >= 0;
    const bool opened = created || ((errno == EMFILE || errno == ENFILE) &&
                                    spare_stream_take(l.c_str(), t->fd, &t->io_lock) >= 0);
    if (t->pid != 0) spare_stream_prepare(); // the one taken (a fork child: its first ones)
    return opened;
}

void release_state(ThreadState* t) {
    spin_lock(g_state_lock);
    t->next_free = g_free_states;
    g_free_states = t;
    spin_unlock(g_state_lock);
}

ThreadState* create_state(u32 pid, u32 parent) {
    ThreadState* t = allocate_state();
    if (t == nullptr) return nullptr;
    t->guard = 1;
    // t->gen keeps counting across recycled uses: stale table slots must stay invalid
    t->depth = 0;
    t->stack_hash = 0;
    t->stack_hashes[0] = 0;
    if (++t->depot_gen == 0) { // wrapped: clear the depot once every 2^32 thread states
        std::memset(t->depot, 0, kDepotSize * sizeof(DepotSlot));
        t->depot_gen = 1;
    }
    t->depot_ids = 0;
    t->pid = pid;
    t->thread_pid = pid;
    t->parent = parent;
    t->os_tid = static_cast<int>(system_call(SYS_gettid));
    t->ended = false;
    t->stack_lo = t->stack_hi = 0; // known at the thread's start (storage_handed_over)
    t->io_lock.store(0);
    t->abandoned.store(false);
    t->appending = false;
    t->in_flush = false;
    t->len = 0;
    t->committed.store(0);
    t->seq = 0;
    t->acq_obj = nullptr;
    t->acq_stamp = 0;
    t->rel_obj = nullptr;
    t->fence_released = false;
    t->relaxed_reads_next = 0;
    for (u64& a : t->relaxed_reads)
        a = 0;
    t->ignore_access_kinds = 0;
    t->ignore_reads_depth = t->ignore_writes_depth = t->ignore_sync_depth = 0;
    t->sync_modelled_above = 0;
    t->robust_count = 0;
    t->ctx_depth = 0;
    t->budget = kBudget;
    reset_event(t, now());
    if (!open_stream(t)) {
        release_state(t);
        return nullptr;
    }
    t->registry_slot = kRegistrySize;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* expected = nullptr;
        if (g_registry[i].compare_exchange_strong(expected, t)) {
            t->registry_slot = i;
            break;
        }
    }
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecProcess);
        put(t, pid);
        put(t, parent == kNoPid ? 0 : u64{parent} + 1);
        put_byte(t, firstrace::format::kProcThread);
        put(t, static_cast<u64>(t->os_tid));
        end_record(t);
    }
    t->guard = 0;
    return t;
}
} // namespace

void thread_registry_init() {
    g_thread_map =
        static_cast<ThreadMapEntry*>(map_anonymous(kThreadMapSize * sizeof(ThreadMapEntry)));
}

void map_thread(u64 pthread_id, u32 pid) {
    if (g_thread_map == nullptr) return;
    const u64 key = pthread_id | 1ull << 63; // never 0
    u64 i = hash64(key) & (kThreadMapSize - 1);
    for (u32 probe = 0; probe < kThreadMapSize; ++probe, i = (i + 1) & (kThreadMapSize - 1)) {
        ThreadMapEntry& e = g_thread_map[i];
        u64 k = e.key.load(std::memory_order_acquire);
        if (k == 0 && !e.key.compare_exchange_strong(k, key)) {
            if (k != key) continue;
        } else if (k != 0 && k != key) {
            continue;
        }
        e.pid.store(pid, std::memory_order_release);
        return;
    }
}

u32 lookup_thread(u64 pthread_id) {
    if (g_thread_map == nullptr) return kNoPid;
    const u64 key = pthread_id | 1ull << 63;
    u64 i = hash64(key) & (kThreadMapSize - 1);
    for (u32 probe = 0; probe < kThreadMapSize; ++probe, i = (i + 1) & (kThreadMapSize - 1)) {
        const u64 k = g_thread_map[i].key.load(std::memory_order_acquire);
        if (k == key) return g_thread_map[i].pid.load(std::memory_order_acquire);
        if (k == 0) return kNoPid;
    }
    return kNoPid;
}

u32 new_pid() {
    const u32 pid = g_next_pid.fetch_add(1, std::memory_order_relaxed);
    if (pid != 0) g_unjoined.fetch_add(1, std::memory_order_relaxed);
    return pid;
}

u32 new_pids(u32 count) {
    const u32 base = g_next_pid.fetch_add(count, std::memory_order_relaxed);
    g_unjoined.fetch_add(base == 0 ? count - 1 : count, std::memory_order_relaxed);
    return base;
}

void process_joined() {
    g_unjoined.fetch_sub(1, std::memory_order_relaxed);
}

void unordered_helper_thread() {
    g_unjoined.fetch_add(1, std::memory_order_relaxed);
}

bool alone() {
    // Relaxed is enough: while the count is zero no other thread of the program exists, and
    // the caller's own creations and joins change it.
    return g_unjoined.load(std::memory_order_relaxed) == 0;
}

ThreadState* attach_thread() {
    if (tls_done) return nullptr;
    RtState s = g_state.load(std::memory_order_acquire);
    if (s == RtState::Uninit) {
        if (!runtime_start_allowed()) return nullptr;
        ensure_init();
        s = g_state.load(std::memory_order_acquire);
    }
    if (s != RtState::Ready) return nullptr;
    // A thread we did not see created (created before initialization or from inside libc).
    tls_done = true; // no recursion while creating
    const u32 pid = new_pid();
    ThreadState* t = create_state(pid, kNoPid);
    tls_state = t;
    tls_done = t == nullptr;
    // Not the first thread (whose trace ends with the process): its events would stay in its
    // open event and unflushed buffer if it ended before the program (a SIGEV_THREAD one does).
    if (t != nullptr && pid != 0) attached_thread_started();
    // The C library's own threads block every signal: the exit flush must still reach this one.
    if (t != nullptr) unblock_exit_flush_signal();
    return t;
}

void thread_started(u32 pid, u32 parent) {
    if (g_state.load(std::memory_order_acquire) != RtState::Ready) return;
    tls_done = true;
    ThreadState* t = create_state(pid, parent);
    tls_state = t;
    tls_done = t == nullptr;
}

void thread_finish(ThreadState* t) {
    if (t->ended) return;
    t->guard = 1;
    const u64 c = now();
    emit_switch(t, t->thread_pid); // an OpenMP task may have been current
    emit_end(t, c);
    flush_all_own(t);
    t->ended = true;
    // Leave the registry under io_lock so that an exit flush does not see a half-released state.
    while (t->io_lock.exchange(1, std::memory_order_acquire) != 0)
        __builtin_ia32_pause();
    if (t->registry_slot < kRegistrySize) g_registry[t->registry_slot].store(nullptr);
    close_own_descriptor(t->fd);
    t->io_lock.store(0, std::memory_order_release);
    tls_state = nullptr;
    tls_done = true;
    // signals deferred during the thread's last runtime call: their handlers run, untraced
    if (t->deferred_signals.load(std::memory_order_relaxed) != 0) run_deferred_signals(t);
    release_state(t);
}

ThreadState* registered_thread(u32 slot) {
    return g_registry[slot].load(std::memory_order_acquire);
}

bool still_registered(u32 slot, const ThreadState* t) {
    return g_registry[slot].load(std::memory_order_acquire) == t;
}

void untraced_from_now() {
    tls_state = nullptr;
    tls_done = true;
}

void thread_registry_after_fork(ThreadState* self) {
    g_state_lock.store(0); // its holder, if any, does not exist in the child
    spare_stream_after_fork();
    for (u32 i = 0; i < kRegistrySize; ++i) {
        // read first: writing every slot would copy every page of the registry (copy-on-write)
        if (g_registry[i].load(std::memory_order_relaxed) == nullptr) continue;
        ThreadState* t = g_registry[i].exchange(nullptr);
        if (t == nullptr) continue;
        close_own_descriptor(t->fd); // the child's copy of the parent's descriptor
        if (t != self) release_state(t);
    }
    // The map is a private anonymous mapping: dropping its pages makes them read as zeros
    // again without copying the parent's 1 MiB page by page (as a memset would).
    if (g_thread_map != nullptr &&
        madvise(g_thread_map, kThreadMapSize * sizeof(ThreadMapEntry), MADV_DONTNEED) != 0)
        std::memset(static_cast<void*>(g_thread_map), 0, kThreadMapSize * sizeof(ThreadMapEntry));
    g_next_pid.store(0);
    g_unjoined.store(0); // the parent's other threads are not in the child (nor in its trace)
}

void restart_after_fork(ThreadState* self) {
    const u32 pid = new_pid();
    const u32 depth = self->depth;
    release_state(self);
    tls_state = nullptr;
    ThreadState* t = create_state(pid, kNoPid); // recycles self first: its shadow stack stays
    tls_state = t;
    tls_done = t == nullptr;
    if (t != nullptr) {
        if (t == self) t->depth = depth;
        t->guard = 0;
    }
}

} // namespace frt
