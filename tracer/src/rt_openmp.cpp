// OpenMP programs through OMPT (OpenMP 5.1 ch. 19, the tool interface): libfirstrace_rt.so
// exports ompt_start_tool, so LLVM's OpenMP runtime (libomp; gcc-compiled code is linked
// against it too, see the wrappers) registers it as a tool. The callbacks become trace events
// on *logical processes* (DESIGN "Model"): every implicit task, every explicit task and every
// chunk of a dynamically scheduled worksharing loop (and every section handed out by the GNU
// entry points) is its own process, ordered only by what OpenMP guarantees:
//
//   parallel region  the encountering task forks one implicit task per requested thread
//                    (pids allocated as a block at parallel-begin) and joins them all at
//                    parallel-end (the implicit barrier orders them already; the join orders
//                    what follows the region).
//   barriers         every implicit or explicit barrier of a team: BarrierArrive/Depart on the
//                    team's barrier object, episode = number of barriers the implicit task
//                    passed. An explicit task arrives (at its completion) at the episode of the
//                    barrier it is bound to complete by (the creator's count at creation).
//   explicit tasks   task-create: Fork in the creating process; first schedule: the process
//                    starts (after acquiring its dependence predecessors); completion: End.
//                    taskwait joins the children created so far; the end of a taskgroup joins
//                    every task created in it and their descendants; an undeferred (if(0),
//                    included) task is joined by its creator when it completes.
//   dependences      computed per parent task at creation, as the OpenMP rules say (in after
//                    the last out/inout/mutexinoutset/inoutset set, out/inout after everything
//                    before, mutexinoutset and inoutset in groups): a task with dependences
//                    releases its completion object (kObjOmpTaskDone) when it completes, and
//                    each successor acquires those of its predecessors when it starts.
//                    mutexinoutset members also hold a lock object (kObjOmpMutexSet) for their
//                    whole execution, counters taken in the real order.
//   mutual exclusion omp locks, nest locks, critical (named or not), ordered, atomic lock: the
//                    mutex-acquired callback takes two counters of the lock object at once
//                    (Acquire c, and the Release c + 1 kept for the release) while the lock is
//                    held, so the counters follow the real order even though the released
//                    callback comes after the runtime released the lock.
//   chunks           a dispatch (clang: __kmpc_dispatch_next_*; gcc: GOMP_loop_*_start/next,
//                    GOMP_sections_start/next) that hands out a chunk ends the previous chunk
//                    of the implicit task and forks a new one from it; the end of the loop
//                    joins the outstanding chunks. Chunks of one implicit task more than
//                    kChunkWindow apart are ordered (joined before the next is forked): width
//                    stays bounded on loops of millions of chunks, and races between chunks of
//                    one thread are found up to that distance (all races between threads are).
//                    Statically scheduled loops hand out no chunk at run time (the iterations of
//                    an implicit task are decided by the team size): they stay in the implicit
//                    task's process.
//   private storage  kRecOsThread (stack and static TLS of each OS thread) and kRecPrivate
//                    (the task's OMPT exit frame; a chunk's is its implicit task's): conflicts
//                    of two processes of one OS thread in storage private to it are no races
//                    (Trace::private_to_both).
//
// Reductions: `firstrace record` runs the program with KMP_FORCE_REDUCTION=critical (also set
// here if unset) so the combine step of every reduction runs in a critical section the
// mutex callbacks report, instead of inside a barrier (tree method) where the reads of other
// threads' private copies would look unordered.
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "rt_internal.hpp"
#include "rt_openmp.hpp"
#include "rt_real.hpp"
#include "rt_reuse_ordering.hpp"
#include "rt_system.hpp"
#include FIRSTRACE_OMP_TOOLS_HEADER

namespace fmt = firstrace::format;

namespace frt {

std::atomic<u64> g_openmp_runtime_lo{0}, g_openmp_runtime_hi{0};

namespace {

inline constexpr u32 kChunkWindow = 8;  // chunks of one implicit task kept unordered
inline constexpr u32 kDepMax = 32;      // tasks per dependence set and in-list
inline constexpr u32 kHeldMax = 64;     // omp locks held at once by one thread
inline constexpr u64 kTaskHeader = 32;  // LLVM's kmp_task_t header before the private data
inline constexpr u32 kDoacrossDims = 4; // loop dimensions whose bounds a doacross wait checks

ompt_get_task_info_t g_get_task_info = nullptr;
ompt_get_task_memory_t g_get_task_memory = nullptr;

// --- storage: fixed-size nodes from mmap'd slabs, recycled through a spin-locked free list ---

template <class T> class Pool {
  public:
    T* get() {
        spin_lock(lock_);
        T* p = free_;
        if (p) free_ = p->next;
        spin_unlock(lock_);
        if (p == nullptr) p = refill();
        if (p != nullptr) *p = T{};
        return p;
    }
    void put(T* p) {
        spin_lock(lock_);
        p->next = free_;
        free_ = p;
        spin_unlock(lock_);
    }

  private:
    T* refill() {
        constexpr std::size_t kSlab = 1u << 20;
        void* mem =
            mmap(nullptr, kSlab, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED) return nullptr;
        T* arr = static_cast<T*>(mem);
        const std::size_t n = kSlab / sizeof(T);
        spin_lock(lock_);
        for (std::size_t i = 1; i < n; ++i) {
            arr[i].next = free_;
            free_ = &arr[i];
        }
        spin_unlock(lock_);
        return &arr[0];
    }
    std::atomic<u32> lock_{0};
    T* free_ = nullptr;
};

struct PidNode { // a child to join, a taskgroup member, a dependence predecessor
    u32 pid = 0;
    bool detachable = false; // joined: also acquire its completion object (see detach below)
    PidNode* next = nullptr;
};

struct TaskGroup {
    TaskGroup* outer = nullptr;
    std::atomic<PidNode*> members{nullptr}; // pushed by descendants on any thread
    TaskGroup* next = nullptr;
    // Member-wise: assigning a group to itself is harmless.
    TaskGroup& operator=(const TaskGroup& o) { // NOLINT(bugprone-unhandled-self-assignment)
        outer = o.outer;
        members.store(o.members.load());
        next = o.next;
        return *this;
    }
};

// Explicit tasks generated outside every parallel region (by the initial task or its
// descendants, bound to the implicit parallel region, a team of one): a barrier there completes
// them all (OpenMP 5.1 2.19.2), as a team's barrier completes the team's tasks.
std::atomic<PidNode*> g_initial_team_tasks{nullptr};

// A parallel region or a league of teams: its implicit tasks get the pids [base, base +
// requested). The runtime may form fewer (a thread limit, a host league on few cores): at the
// end of the region the pids no implicit task took are declared as empty implicit tasks, so
// that no forked process is left without an end (the trace would look truncated).
struct Region {
    u32 base = 0;
    u32 requested = 0;
    bool league = false;               // a league of teams: each initial task is a contention group
    u32 contention = 0;                // a team: the contention group of the encountering task
    u32 host_team = 0, host_teams = 0; // a team: the encountering task's host league team
    std::atomic<u32> begun{0};
    Region* next = nullptr;
    // Copying a region onto itself stores the same values: harmless.
    Region& operator=(const Region& o) { // NOLINT(bugprone-unhandled-self-assignment)
        base = o.base;
        requested = o.requested;
        league = o.league;
        contention = o.contention;
        host_team = o.host_team;
        host_teams = o.host_teams;
        begun.store(o.begun.load());
        next = o.next;
        return *this;
    }
};

struct MutexHold { // a mutexinoutset lock object held for the task's execution
    u64 address = 0;
    u64 release_counter = 0;
    MutexHold* next = nullptr;
};

enum class TaskKind : u8 { Initial, Implicit, Explicit };

struct Task {
    u32 pid = 0;
    u32 active = 0; // the process running on behalf of the task: pid, or its current chunk
    TaskKind kind = TaskKind::Explicit;
    bool started = false;
    bool ended = false;
    bool undeferred = false; // if(0) or included in a final task: the creator waits for it
    bool final = false;
    bool detachable = false; // detach clause: completes when its event is fulfilled
    bool has_deps = false;
    bool private_known = false;
    bool in_barrier = false; // implicit: arrived at a barrier it has not departed from yet
    u32 index = 0;           // implicit: thread number in the team
    // The contention group (OpenMP 5.1 1.2.2): 0 for the initial thread's, else the pid of the
    // initial task of the team of a league that the task runs in. Locks and critical sections
    // exclude only within one group (5.1 2.19.1, 3.9), so their objects are per group.
    u32 contention = 0;
    u32 host_team = 0, host_teams = 0; // in a team of a host league (gcc): number and count
    u32 creator_pid = kNoPid;
    Task* creator = nullptr; // explicit: the creating task (joins an undeferred task)
    u64 team = 0;            // barrier object of the team the task is bound to (0: none)
    u64 episode = 0;         // implicit: barriers passed; explicit: the one it completes by
    u64 private_below = 0;
    u32 dep_generation = 0; // bumped when all children are known complete (taskwait, barrier)
    PidNode* children = nullptr;
    PidNode* preds = nullptr;
    MutexHold* mutexsets = nullptr;
    TaskGroup* group = nullptr;     // innermost taskgroup the task itself opened
    TaskGroup* member_of = nullptr; // the taskgroup the task belongs to (with its descendants)
    u32 window[kChunkWindow] = {};  // outstanding chunks (implicit tasks)
    u32 doacross_loops = 0;         // implicit: doacross loops begun (same count in the team)
    u32 doacross_dims = 0;          // of the current doacross loop, bounds of the first ones
    std::int64_t doacross_lo[kDoacrossDims] = {}, doacross_hi[kDoacrossDims] = {};
    u32 nchunks = 0;
    u32 shared_blocks = 0; // implicit: team-shared blocks asked for (same count in the team)
    const uintptr_t* gomp_reductions = nullptr; // gcc taskloop task: the registration array
    PidNode* as_child = nullptr;                // its node in the creator's children list
    PidNode* as_member = nullptr;               // its node in its taskgroup's members
    Task* next = nullptr;
};

Pool<Task> g_tasks;

u64 dep_owner(const Task* parent) {
    if (parent->ended) return ~0ull;
    return ((u64{parent->pid} << 32) | parent->dep_generation) + 1;
}
Pool<PidNode> g_nodes;
Pool<TaskGroup> g_groups;
Pool<Region> g_regions;
Pool<MutexHold> g_holds;

// Per OS thread: the task OMPT says runs here, locks held, whether the stack/TLS record exists.
struct Held {
    u64 wait_id;
    u64 release_counter;
};
__thread Task* tls_task __attribute__((tls_model("initial-exec"))) = nullptr;
__thread Held tls_held[kHeldMax] __attribute__((tls_model("initial-exec")));
__thread u32 tls_nheld __attribute__((tls_model("initial-exec"))) = 0;
__thread bool tls_thread_declared __attribute__((tls_model("initial-exec"))) = false;
// The last barrier of a region the master's implicit task arrived at: its departures are
// reported late or never, so the encountering task departs from it at parallel-end (ordering
// after it the explicit tasks that complete there).
__thread u64 tls_final_team __attribute__((tls_model("initial-exec"))) = 0;
__thread u64 tls_final_episode __attribute__((tls_model("initial-exec"))) = 0;
__thread u32 tls_in_dispatch __attribute__((tls_model("initial-exec"))) = 0;
// The frame of the gcc combined `parallel` + worksharing loop entry point (GOMP_parallel_loop_*)
// this thread is inside: libomp 14 runs the region's function for the encountering thread from
// inside that entry point without setting the implicit task's exit frame, so its chunks would
// share the task's frames (a callee's locals written by every chunk looked racy).
__thread u64 tls_gomp_combined_frame __attribute__((tls_model("initial-exec"))) = 0;
// The region this thread began last whose primary implicit task has not begun: libomp 14 can
// pass a stale parallel data to that task's begin (a league of teams after an earlier league
// with nested teams' regions), while the primary task always begins on the encountering thread
// right after the region.
__thread Region* tls_pending_region __attribute__((tls_model("initial-exec"))) = nullptr;
// GOMP_task with a false if clause is creating its task on this thread.
__thread bool tls_creating_if0 __attribute__((tls_model("initial-exec"))) = false;
// The task being created on this thread has a detach clause (clang:
// __kmpc_task_allow_completion_event before __kmpc_omp_task; gcc's detach clause is lost in libomp
// 14).
__thread bool tls_creating_detachable __attribute__((tls_model("initial-exec"))) = false;
// GOMP_taskloop with a reduction clause is creating its tasks here: their registration array.
__thread const uintptr_t* tls_gomp_taskloop_reductions __attribute__((tls_model("initial-exec"))) =
    nullptr;

Task* task_of(ompt_data_t* d) {
    return d ? static_cast<Task*>(d->ptr) : nullptr;
}

// --- records ---------------------------------------------------------------------------------

void sync(ThreadState* t, u8 op, u8 cls, u64 object, u64 counter, const void* pc, u32 inc = 0) {
    const u64 c = now();
    close_computation(t, c);
    SyncRecord r{};
    r.op = op;
    r.cls = cls;
    r.object = object;
    r.incarnation = inc;
    r.counter = counter;
    r.clock_start = c;
    r.clock_finish = c;
    r.pc = reinterpret_cast<u64>(pc);
    emit_sync(t, r);
}

void fork_join(ThreadState* t, u8 op, u32 child, const void* pc) {
    sync(t, op, fmt::kObjThread, child, 0, pc);
}

struct TlsHull {
    u64 lo = ~0ull;
    u64 hi = 0;
};

int tls_hull_callback(struct dl_phdr_info* info, size_t, void* arg) {
    auto* hull = static_cast<TlsHull*>(arg);
    if (info->dlpi_tls_data == nullptr) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type != PT_TLS) continue;
        const u64 lo = reinterpret_cast<u64>(info->dlpi_tls_data);
        const u64 hi = lo + info->dlpi_phdr[i].p_memsz;
        if (lo < hull->lo) hull->lo = lo;
        if (hi > hull->hi) hull->hi = hi;
    }
    return 0;
}

// kRecOsThread: this thread's stack and static TLS (once per thread, in its own stream).
void declare_os_thread(ThreadState* t) {
    if (tls_thread_declared) return;
    tls_thread_declared = true;
    u64 stack_lo = 0, stack_hi = 0;
    own_stack(stack_lo, stack_hi);
    TlsHull hull;
    dl_iterate_phdr(tls_hull_callback, &hull);
    if (hull.hi == 0) hull.lo = 0;
    const u64 v[] = {static_cast<u64>(t->os_tid), stack_lo, stack_hi, hull.lo, hull.hi};
    emit_varints(t, fmt::kRecOsThread, v, 5);
}

void emit_private(ThreadState* t, u32 pid, u64 below) {
    const u64 v[] = {pid, below};
    emit_varints(t, fmt::kRecPrivate, v, 2);
}

// The exit frame of the task running on this thread (0 when the runtime has not set it yet:
// an implicit task's is set only once its outlined function runs).
u64 current_exit_frame() {
    if (g_get_task_info == nullptr) return 0;
    int type = 0, thread_num = 0;
    ompt_data_t* task_data = nullptr;
    ompt_data_t* parallel_data = nullptr;
    ompt_frame_t* frame = nullptr;
    if (!g_get_task_info(0, &type, &task_data, &frame, &parallel_data, &thread_num)) return 0;
    return frame ? reinterpret_cast<u64>(frame->exit_frame.ptr) : 0;
}

// Declares the private stack bound of an implicit task once it is known (it runs here now).
void ensure_private(ThreadState* t, Task* task) {
    if (task->private_known || task->kind != TaskKind::Implicit) return;
    u64 below = current_exit_frame();
    if (below == 0) below = tls_gomp_combined_frame;
    if (below == 0) return;
    task->private_below = below;
    task->private_known = true;
    emit_private(t, task->pid, below);
}

void join_list(ThreadState* t, PidNode*& list, const void* pc) {
    for (PidNode* n = list; n != nullptr;) {
        PidNode* next = n->next;
        if (t != nullptr) fork_join(t, fmt::kOpJoin, n->pid, pc);
        if (t != nullptr && n->detachable) // fulfilled maybe after its body ended: see detach
            sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, n->pid, 1, pc);
        g_nodes.put(n);
        n = next;
    }
    list = nullptr;
}

void push(PidNode*& list, u32 pid) {
    PidNode* n = g_nodes.get();
    if (n == nullptr) return;
    n->pid = pid;
    n->next = list;
    list = n;
}

// --- chunks of worksharing loops ---------------------------------------------------------------

// Ends the chunk running for implicit task `task` (if any); with `more`, forks and starts the
// next one, else joins the outstanding chunks: the loop is over for this implicit task.
void chunk_boundary(ThreadState* t, Task* task, bool more, const void* pc) {
    if (task->active != task->pid) {
        emit_switch(t, task->active);
        emit_end(t, now());
    }
    emit_switch(t, task->pid);
    task->active = task->pid;
    if (!more) {
        for (u32 i = 0; i < task->nchunks && i < kChunkWindow; ++i)
            fork_join(t, fmt::kOpJoin, task->window[i], pc);
        task->nchunks = 0;
        return;
    }
    ensure_private(t, task);
    const u32 chunk = new_pid();
    u32& slot = task->window[task->nchunks % kChunkWindow];
    if (task->nchunks >= kChunkWindow) fork_join(t, fmt::kOpJoin, slot, pc);
    slot = chunk;
    ++task->nchunks;
    fork_join(t, fmt::kOpFork, chunk, pc);
    emit_process(t, chunk, task->pid, fmt::kProcChunk);
    if (task->private_known) emit_private(t, chunk, task->private_below);
    task->active = chunk;
}

// A dispatch entry point returned: `more` = it handed out a chunk. Nested dispatch calls (the
// GNU entry points call the LLVM ones) count once.
void on_dispatch(bool more, const void* pc) {
    if (tls_in_dispatch != 0) return;
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* task = tls_task;
    if (task != nullptr && task->kind == TaskKind::Implicit && !task->ended)
        chunk_boundary(t, task, more, pc);
}

// --- doacross loops (ordered(n) with depend(source) / depend(sink : vec), OpenMP 5.1 2.19.9) ---
// LLVM 14 reports no OMPT event for them: the entry points are interposed (clang). Each
// iteration of a doacross loop is a synchronization object of its own, keyed by the team, the
// loop's number in the team (every implicit task begins every doacross loop, so the counts
// agree) and the iteration vector: depend(source) releases it, depend(sink) acquires it. A sink
// outside the iteration space waits for nothing (OpenMP: such a dependence is ignored).

u64 doacross_object(const Task* task, const std::int64_t* vec, u32 dims) {
    u64 h = fmt::checksum_update(task->team, &task->doacross_loops, sizeof task->doacross_loops);
    return fmt::checksum_update(h, vec, sizeof(std::int64_t) * dims);
}

Task* doacross_task() {
    Task* task = tls_task;
    return task != nullptr && task->kind == TaskKind::Implicit && !task->ended ? task : nullptr;
}

void on_doacross_init(std::int32_t dims, const std::int64_t* bounds /* lo, up, st per dim */) {
    Task* task = doacross_task();
    if (task == nullptr) return;
    ++task->doacross_loops;
    task->doacross_dims = dims > 0 ? static_cast<u32>(dims) : 0;
    for (u32 d = 0; d < task->doacross_dims && d < kDoacrossDims; ++d) {
        const std::int64_t lo = bounds[3 * d], up = bounds[3 * d + 1];
        task->doacross_lo[d] = lo < up ? lo : up;
        task->doacross_hi[d] = lo < up ? up : lo;
    }
}

void on_doacross(bool post, const std::int64_t* vec, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    Task* task = doacross_task();
    if (task == nullptr || task->doacross_dims == 0) return;
    if (!post)
        for (u32 d = 0; d < task->doacross_dims && d < kDoacrossDims; ++d)
            if (vec[d] < task->doacross_lo[d] || vec[d] > task->doacross_hi[d]) return;
    const u64 object = doacross_object(task, vec, task->doacross_dims);
    sync(scope.thread(), post ? fmt::kOpRelease : fmt::kOpAcquire, fmt::kObjOmpDoacross, object,
         post ? 0 : 1, pc);
}

// --- dependences -----------------------------------------------------------------------------

// One dependence address of one parent task (siblings only depend on each other), in one
// generation of that parent (a taskwait or barrier completes every earlier sibling, whose
// edges the joins then carry). Only the parent's thread reads or writes an entry it claimed;
// an entry whose parent ended or moved to a later generation is stale and is reclaimed.
struct DepEntry {
    std::atomic<u64> owner; // (parent pid << 32 | generation) + 1; 0 = free
    Task* parent;
    u64 address;
    u8 mode; // of the last set: 0 none, 1 out/inout, 2 mutexinoutset, 3 inoutset
    u32 nset, nins, nbase;
    u32 set[kDepMax];  // the last out / inout task, or the current mutexinoutset/inoutset group
    u32 ins[kDepMax];  // in tasks after that set
    u32 base[kDepMax]; // what the current group depends on
};
inline constexpr u64 kDepTableSize = 1u << 16;
DepEntry* g_deps = nullptr;

u64 mix(u64 k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

bool dep_stale(const DepEntry& e, u64 owner) {
    // Task nodes are recycled, never unmapped: reading a recycled one only finds another owner
    return e.parent == nullptr || dep_owner(e.parent) != owner;
}

DepEntry* dep_entry(Task* parent, u64 address) {
    if (g_deps == nullptr) return nullptr;
    const u64 owner = dep_owner(parent);
    u64 i = mix(owner * 31 + address) & (kDepTableSize - 1);
    for (u32 probe = 0; probe < 4096; ++probe, i = (i + 1) & (kDepTableSize - 1)) {
        DepEntry& e = g_deps[i];
        u64 o = e.owner.load(std::memory_order_acquire);
        if (o == owner && e.address == address) return &e;
        if (o == owner) continue;
        if ((o == 0 || dep_stale(e, o)) && e.owner.compare_exchange_strong(o, owner)) {
            e.parent = parent;
            e.address = address;
            e.mode = 0;
            e.nset = e.nins = e.nbase = 0;
            return &e;
        }
    }
    return nullptr;
}

void add_unique(u32* arr, u32& n, u32 pid) {
    for (u32 i = 0; i < n; ++i)
        if (arr[i] == pid) return;
    if (n < kDepMax) arr[n++] = pid;
}

void add_preds(Task* task, const u32* arr, u32 n) {
    for (u32 i = 0; i < n; ++i) {
        bool seen = false;
        for (PidNode* p = task->preds; p && !seen; p = p->next)
            seen = p->pid == arr[i];
        if (!seen) push(task->preds, arr[i]);
    }
}

// OpenMP 5.1 2.19.11: the dependence of `task` (created by `parent`) on `address`.
void add_dependence(Task* parent, Task* task, u64 address, int type) {
    DepEntry* e = dep_entry(parent, address);
    if (e == nullptr) return;
    task->has_deps = true;
    switch (type) {
    case ompt_dependence_type_in:
        add_preds(task, e->set, e->nset);
        add_unique(e->ins, e->nins, task->pid);
        break;
    case ompt_dependence_type_out:
    case ompt_dependence_type_inout:
        add_preds(task, e->set, e->nset);
        add_preds(task, e->ins, e->nins);
        e->mode = 1;
        e->nset = e->nins = e->nbase = 0;
        e->set[e->nset++] = task->pid;
        break;
    case ompt_dependence_type_mutexinoutset:
    case ompt_dependence_type_inoutset: {
        const u8 mode = type == ompt_dependence_type_mutexinoutset ? 2 : 3;
        if (e->mode != mode || e->nins != 0) { // a new group after what came before
            e->nbase = 0;
            for (u32 i = 0; i < e->nset; ++i)
                add_unique(e->base, e->nbase, e->set[i]);
            for (u32 i = 0; i < e->nins; ++i)
                add_unique(e->base, e->nbase, e->ins[i]);
            e->mode = mode;
            e->nset = e->nins = 0;
        }
        add_preds(task, e->base, e->nbase);
        add_unique(e->set, e->nset, task->pid);
        if (mode == 2) {
            MutexHold* h = g_holds.get();
            if (h != nullptr) {
                h->address = address;
                h->next = task->mutexsets;
                task->mutexsets = h;
            }
        }
        break;
    }
    default: // source/sink (doacross loops) are not modelled
        break;
    }
}

// LLVM's kmp_depend_info_t: the flag bits are in (1), out (2), mtx (4), set (8).
struct KmpDependInfo {
    std::intptr_t base_addr;
    size_t len;
    std::uint8_t flags;
};

// `taskwait depend(...)` (OpenMP 5.1 2.19.5): the encountering task waits for the sibling
// tasks that a task with these dependences would depend on; it then acquires their completion
// objects. The dependence table is only read: the wait completes at once, so tasks created
// after it are ordered behind those siblings through the encountering task anyway.
void on_wait_deps(const KmpDependInfo* deps, std::int32_t n, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    Task* task = tls_task;
    if (task == nullptr || task->ended || deps == nullptr) return;
    ThreadState* t = scope.thread();
    emit_switch(t, task->active);
    for (std::int32_t i = 0; i < n; ++i) {
        DepEntry* e = dep_entry(task, static_cast<u64>(deps[i].base_addr));
        if (e == nullptr) continue;
        const bool writes = (deps[i].flags & ~1u) != 0; // out, inout, mutexinoutset, inoutset
        for (u32 k = 0; k < e->nset; ++k)
            sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, e->set[k], 1, pc);
        for (u32 k = 0; writes && k < e->nins; ++k)
            sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, e->ins[k], 1, pc);
        if (e->mode >= 2 && writes)
            for (u32 k = 0; k < e->nbase; ++k)
                sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, e->base[k], 1, pc);
    }
}

u64 mutexset_key(u64 address, u32 parent) {
    return address ^ (u64{parent} << 40) ^ (u64{parent} >> 24);
}

// --- explicit tasks ----------------------------------------------------------------------------

void start_task(ThreadState* t, Task* task) {
    task->started = true;
    emit_process(t, task->pid, task->creator_pid, fmt::kProcTask);
    task->private_below = current_exit_frame();
    task->private_known = task->private_below != 0;
    if (task->private_known) emit_private(t, task->pid, task->private_below);
    // The task's block in the runtime (firstprivate copies, the shareds pointers): reused by
    // later tasks, so each task's accesses there are its own (see kRecTaskBlock).
    void* block = nullptr;
    size_t size = 0;
    // LLVM reports the private data after the kmp_task_t header (shareds pointer, routine,
    // part_id and, with destructors, data1: 20 or 32 bytes); the task reads the header too (its
    // shareds pointer), and the runtime copies it for taskloop tasks: the block starts 32 bytes
    // earlier (in the 20-byte case 12 bytes of the runtime's own task descriptor, which no
    // instrumented code touches).
    if (g_get_task_memory != nullptr && g_get_task_memory(&block, &size, 0) && size != 0) {
        const u64 lo = reinterpret_cast<u64>(block) - kTaskHeader;
        const u64 v[] = {task->pid, lo, reinterpret_cast<u64>(block) + size};
        emit_varints(t, fmt::kRecTaskBlock, v, 3);
    }
    // gcc's taskloop tasks find their thread's reduction copy inline (data[2] + thread number
    // x data[1], see "task reductions" below), with no call the runtime could see.
    if (const uintptr_t* data = task->gomp_reductions; data != nullptr && g_get_task_info) {
        int type = 0, thread_num = -1;
        ompt_data_t *task_data = nullptr, *parallel_data = nullptr;
        ompt_frame_t* frame = nullptr;
        if (g_get_task_info(0, &type, &task_data, &frame, &parallel_data, &thread_num) &&
            thread_num >= 0 && data[2] != 0) {
            const u64 lo = data[2] + static_cast<u64>(thread_num) * data[1];
            const u64 v[] = {task->pid, lo, lo + data[1]};
            emit_varints(t, fmt::kRecTaskBlock, v, 3);
        }
    }
    for (PidNode* p = task->preds; p != nullptr; p = p->next)
        sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, p->pid, 1, nullptr);
    for (MutexHold* h = task->mutexsets; h != nullptr; h = h->next) {
        ObjEntry* o =
            object(fmt::kObjOmpMutexSet,
                   reinterpret_cast<const void*>(mutexset_key(h->address, task->creator_pid)));
        const u64 c = o->counter.fetch_add(2);
        h->release_counter = c + 1;
        sync(t, fmt::kOpAcquire, fmt::kObjOmpMutexSet, h->address, c, nullptr, task->creator_pid);
    }
}

// Detached tasks (OpenMP 5.1 2.12.1, detach clause): the task completes when its body has ended
// *and* its event is fulfilled (omp_fulfill_event, by any task). Whichever comes second is the
// completion: the first releases the object fulfil_object(pid), the second acquires it. The
// completion object (kObjOmpTaskDone, pid) is then released by the body (fulfilled early) or
// by the fulfilling process (late), and dependents and the joins of the task (taskwait,
// taskgroup: PidNode::detachable) acquire it. A late fulfil also arrives at the barrier the
// task must complete by (the body arrived there when it ended), so that the barrier orders it.
u64 fulfil_object(u32 pid) {
    return u64{pid} | (1ull << 40);
}

void complete_task(ThreadState* t, Task* task, bool awaiting_fulfil = false) {
    emit_switch(t, task->pid);
    if (task->detachable && !awaiting_fulfil) // fulfilled before its body ended
        sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, fulfil_object(task->pid), 1, nullptr);
    for (MutexHold* h = task->mutexsets; h != nullptr;) {
        MutexHold* next = h->next;
        sync(t, fmt::kOpRelease, fmt::kObjOmpMutexSet, h->address, h->release_counter, nullptr,
             task->creator_pid);
        g_holds.put(h);
        h = next;
    }
    task->mutexsets = nullptr;
    if (awaiting_fulfil)
        sync(t, fmt::kOpRelease, fmt::kObjOmpTaskDone, fulfil_object(task->pid), 0, nullptr);
    else if (task->has_deps)
        sync(t, fmt::kOpRelease, fmt::kObjOmpTaskDone, task->pid, 0, nullptr);
    if (task->team != 0)
        sync(t, fmt::kOpBarrierArrive, fmt::kObjOmpBarrier, task->team, task->episode, nullptr);
    emit_end(t, now());
    task->ended = true;
}

void free_task(Task* task) {
    join_list(nullptr, task->children, nullptr);
    join_list(nullptr, task->preds, nullptr);
    while (TaskGroup* g = task->group) {
        task->group = g->outer;
        PidNode* m = g->members.load();
        join_list(nullptr, m, nullptr);
        g_groups.put(g);
    }
    g_tasks.put(task);
}

// --- team-shared blocks of worksharing constructs (gcc's scan and conditional lastprivate) ---
// Every thread of the team asks for the block of the same construct: the n-th block an
// implicit task asks for is the n-th of its team. Blocks live until the region ends.
struct SharedBlock {
    u64 team = 0; // 0: free
    u32 seq = 0;
    void* ptr = nullptr;
    u64 size = 0;
};
inline constexpr u32 kSharedBlocks = 4096;
SharedBlock* g_shared_blocks = nullptr;
std::atomic<u32> g_shared_lock{0};
std::atomic<u32> g_shared_live{0};

void* team_shared_block(u64 size) {
    if (size == 0) size = 1;
    Task* task = tls_task;
    if (task == nullptr || task->team == 0) return map_anonymous(size); // not in a team
    const u64 team = task->team;
    const u32 seq = ++task->shared_blocks;
    void* found = nullptr;
    spin_lock(g_shared_lock);
    if (g_shared_blocks == nullptr)
        g_shared_blocks =
            static_cast<SharedBlock*>(map_anonymous(kSharedBlocks * sizeof(SharedBlock)));
    SharedBlock* free_slot = nullptr;
    for (u32 i = 0; g_shared_blocks != nullptr && i < kSharedBlocks; ++i) {
        SharedBlock& b = g_shared_blocks[i];
        if (b.team == team && b.seq == seq) {
            found = b.ptr;
            break;
        }
        if (b.team == 0 && free_slot == nullptr) free_slot = &b;
    }
    if (found == nullptr && free_slot != nullptr) {
        found = map_anonymous(size);
        if (found != nullptr) {
            *free_slot = SharedBlock{team, seq, found, size};
            g_shared_live.fetch_add(1);
        }
    }
    spin_unlock(g_shared_lock);
    return found;
}

void release_team_blocks(u64 team) {
    if (g_shared_live.load() == 0) return;
    spin_lock(g_shared_lock);
    for (u32 i = 0; g_shared_blocks != nullptr && i < kSharedBlocks; ++i) {
        SharedBlock& b = g_shared_blocks[i];
        if (b.team != team) continue;
        system_call(SYS_munmap, b.ptr, b.size); // not the interposed munmap: not the program's
        b = SharedBlock{};
        g_shared_live.fetch_sub(1);
    }
    spin_unlock(g_shared_lock);
}

// --- OMPT callbacks
// -------------------------------------------------------------------------------

void on_thread_begin(ompt_thread_t, ompt_data_t*) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    declare_os_thread(t);
}

void on_parallel_begin(ompt_data_t* encountering, const ompt_frame_t*, ompt_data_t* parallel,
                       unsigned requested, int flags, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    if (requested == 0) requested = 1;
    const u32 base = new_pids(requested);
    Region* region = g_regions.get();
    parallel->ptr = region;
    tls_pending_region = region;
    Task* e = task_of(encountering);
    if (region != nullptr) {
        region->base = base;
        region->requested = requested;
        region->league = (flags & ompt_parallel_league) != 0;
        region->contention = e ? e->contention : 0;
        region->host_team = e ? e->host_team : 0;
        region->host_teams = e ? e->host_teams : 0;
    }
    if (e != nullptr) emit_switch(t, e->active);
    for (u32 i = 0; i < requested; ++i)
        fork_join(t, fmt::kOpFork, base + i, pc);
}

void on_parallel_end(ompt_data_t* parallel, ompt_data_t* encountering, int, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* e = task_of(encountering);
    if (e != nullptr) emit_switch(t, e->active);
    tls_task = e;
    Region* region = static_cast<Region*>(parallel->ptr);
    if (region == nullptr) return;
    parallel->ptr = nullptr;
    if (tls_pending_region == region) tls_pending_region = nullptr;
    const u32 base = region->base;
    const u32 requested = region->requested;
    for (u32 i = region->begun.load(); i < requested; ++i) { // never formed: empty tasks
        emit_process(t, base + i, kNoPid, fmt::kProcImplicitTask);
        emit_end(t, now());
    }
    if (e != nullptr) emit_switch(t, e->active);
    g_regions.put(region);
    release_team_blocks(u64{base} + 1);
    if (tls_final_team == u64{base} + 1)
        sync(t, fmt::kOpBarrierDepart, fmt::kObjOmpBarrier, tls_final_team, tls_final_episode, pc);
    tls_final_team = 0;
    for (u32 i = 0; i < requested; ++i)
        fork_join(t, fmt::kOpJoin, base + i, pc);
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task_data,
                      unsigned, unsigned index, int flags) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    declare_os_thread(t);
    if (endpoint == ompt_scope_begin) {
        Task* task = g_tasks.get();
        if (task == nullptr) {
            return;
        }
        Region* region = parallel ? static_cast<Region*>(parallel->ptr) : nullptr;
        if (index == 0 && tls_pending_region != nullptr && parallel != nullptr) {
            region = tls_pending_region;
            tls_pending_region = nullptr;
        }
        if ((flags & ompt_task_initial) && region == nullptr) {
            // the program's initial task: the thread's own process
            task->kind = TaskKind::Initial;
            task->pid = task->active = t->pid;
            task->started = true;
        } else {
            const u32 base = region ? region->base : 0;
            const u32 requested = region ? region->requested : 0;
            if (region != nullptr && index < requested) region->begun.fetch_add(1);
            task->kind = TaskKind::Implicit;
            task->pid = task->active = index < requested ? base + index : new_pid();
            task->team = u64{base} + 1;
            task->index = index;
            task->contention = region == nullptr ? 0
                               : region->league  ? task->pid
                                                 : region->contention;
            if (region != nullptr) {
                task->host_team = region->host_team;
                task->host_teams = region->host_teams;
            }
            task->started = true;
            emit_process(t, task->pid, kNoPid, fmt::kProcImplicitTask);
            // The task's own frames until the runtime sets its exit frame (ensure_private, which
            // may never happen: a task with no barrier or task inside its function): the
            // runtime calls the region's function from this callback's caller or above, so the
            // frames below this one are the task's. Without it the implicit tasks of two
            // unordered regions run one after the other by one thread (the teams of a host
            // league) conflict in their frames.
            emit_private(t, task->pid, reinterpret_cast<u64>(__builtin_frame_address(0)));
        }
        task_data->ptr = task;
        tls_task = task;
    } else {
        Task* task = task_of(task_data);
        if (task == nullptr) {
            return;
        }
        task_data->ptr = nullptr;
        if (task->kind == TaskKind::Implicit) {
            if (task->active != task->pid) chunk_boundary(t, task, false, nullptr);
            if (!task->in_barrier) {
                // a serialized region (team of one) reports no barrier at its end: its tasks
                // still complete there
                emit_switch(t, task->pid);
                sync(t, fmt::kOpBarrierArrive, fmt::kObjOmpBarrier, task->team, task->episode,
                     nullptr);
                task->in_barrier = true;
            }
            if (task->index == 0) {
                tls_final_team = task->team;
                tls_final_episode = task->episode;
            }
            emit_switch(t, task->pid);
            emit_end(t, now());
            emit_switch(t, t->thread_pid);
        }
        if (tls_task == task) tls_task = nullptr;
        free_task(task);
    }
}

void on_task_create(ompt_data_t* encountering, const ompt_frame_t*, ompt_data_t* new_task,
                    int flags, int, const void* pc) {
    if (!(flags & ompt_task_explicit) && !(flags & ompt_task_target)) return;
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* parent = task_of(encountering);
    Task* task = g_tasks.get();
    if (task == nullptr) {
        return;
    }
    task->kind = TaskKind::Explicit;
    task->pid = task->active = new_pid();
    // The runtime also runs tasks of a team of one thread at once (flagged undeferred): that is
    // its schedule, not the program's, so only if(0) (GOMP_task here, clang's begin_if0 below)
    // and tasks included in a final task are joined by their creator.
    task->final = (flags & ompt_task_final) != 0;
    task->undeferred = (flags & ompt_task_undeferred) != 0 &&
                       (tls_creating_if0 || (parent != nullptr && parent->final));
    if (parent != nullptr) {
        emit_switch(t, parent->active);
        ensure_private(t, parent);
        task->creator = parent;
        task->contention = parent->contention;
        task->host_team = parent->host_team;
        task->host_teams = parent->host_teams;
        task->team = parent->team;
        task->episode = parent->episode;
        task->member_of = parent->group ? parent->group : parent->member_of;
        push(parent->children, task->pid);
        task->as_child = parent->children;
        if (task->team == 0) {
            if (PidNode* n = g_nodes.get()) {
                n->pid = task->pid;
                n->detachable = tls_creating_detachable;
                PidNode* head = g_initial_team_tasks.load(std::memory_order_relaxed);
                do {
                    n->next = head;
                } while (!g_initial_team_tasks.compare_exchange_weak(head, n));
            }
        }
    }
    task->detachable = tls_creating_detachable;
    tls_creating_detachable = false;
    if (task->detachable) task->has_deps = true; // its completion object is always released
    if (task->as_child != nullptr) task->as_child->detachable = task->detachable;
    task->creator_pid = t->pid;
    task->gomp_reductions = tls_gomp_taskloop_reductions;
    if (TaskGroup* g = task->member_of) {
        PidNode* n = g_nodes.get();
        if (n != nullptr) {
            n->pid = task->pid;
            n->detachable = task->detachable;
            task->as_member = n;
            PidNode* head = g->members.load(std::memory_order_relaxed);
            do {
                n->next = head;
            } while (!g->members.compare_exchange_weak(head, n, std::memory_order_release,
                                                       std::memory_order_relaxed));
        }
    }
    fork_join(t, fmt::kOpFork, task->pid, pc);
    new_task->ptr = task;
}

// Set while __kmpc_omp_wait_deps runs: libomp reports the dependences of a `taskwait
// depend` as the encountering task's own, which they are not (see on_wait_deps).
__thread bool tls_in_wait_deps __attribute__((tls_model("initial-exec"))) = false;

void on_dependences(ompt_data_t* task_data, const ompt_dependence_t* deps, int ndeps) {
    if (tls_in_wait_deps) return;
    InterceptorScope scope;
    if (!scope) return;
    Task* task = task_of(task_data);
    Task* parent = task ? task->creator : nullptr;
    if (task != nullptr && parent != nullptr)
        for (int i = 0; i < ndeps; ++i)
            add_dependence(parent, task, reinterpret_cast<u64>(deps[i].variable.ptr),
                           deps[i].dependence_type);
}

void on_task_schedule(ompt_data_t* prior_data, ompt_task_status_t status, ompt_data_t* next_data) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* prior = task_of(prior_data);
    Task* next = task_of(next_data);
    if (status == ompt_task_early_fulfill || status == ompt_task_late_fulfill) {
        // omp_fulfill_event on this thread, in the process running here (see detach above)
        if (prior == nullptr || !prior->detachable) return;
        if (Task* here = tls_task) emit_switch(t, here->active);
        const void* pc = nullptr;
        if (status == ompt_task_early_fulfill) {
            sync(t, fmt::kOpRelease, fmt::kObjOmpTaskDone, fulfil_object(prior->pid), 0, pc);
        } else {
            sync(t, fmt::kOpAcquire, fmt::kObjOmpTaskDone, fulfil_object(prior->pid), 1, pc);
            sync(t, fmt::kOpRelease, fmt::kObjOmpTaskDone, prior->pid, 0, pc);
            // the barrier the task completes by waits for this fulfil too (its body arrived
            // there already): the fulfilling process arrives at that episode as well
            if (prior->team != 0)
                sync(t, fmt::kOpBarrierArrive, fmt::kObjOmpBarrier, prior->team, prior->episode,
                     pc);
            prior_data->ptr = nullptr;
            free_task(prior);
        }
        return;
    }
    const bool finished =
        status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_detach;
    if (prior != nullptr && prior->kind == TaskKind::Explicit && finished && !prior->ended) {
        const bool awaiting_fulfil = status == ompt_task_detach && prior->detachable;
        complete_task(t, prior, awaiting_fulfil);
        if (awaiting_fulfil) {
            prior = nullptr; // freed when the event is fulfilled
        } else {
            prior_data->ptr = nullptr;
        }
    } else {
        prior = finished ? prior : nullptr; // only a finished explicit task is freed below
    }
    if (next != nullptr) {
        if (next->kind == TaskKind::Explicit && !next->started)
            start_task(t, next);
        else
            emit_switch(t, next->active);
        tls_task = next;
        // the creator of an undeferred task resumes after it: ordered by a join
        if (prior != nullptr && prior->undeferred && prior->creator == next)
            fork_join(t, fmt::kOpJoin, prior->pid, nullptr);
    }
    if (prior != nullptr && prior->kind == TaskKind::Explicit && prior->ended) free_task(prior);
}

bool is_barrier(ompt_sync_region_t kind) {
    switch (kind) {
    case ompt_sync_region_barrier:
    case ompt_sync_region_barrier_implicit:
    case ompt_sync_region_barrier_explicit:
    case ompt_sync_region_barrier_implementation:
    case ompt_sync_region_barrier_implicit_workshare:
    case ompt_sync_region_barrier_implicit_parallel:
    case ompt_sync_region_barrier_teams:
        return true;
    default:
        return false;
    }
}

void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                    ompt_data_t* task_data, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* task = task_of(task_data);
    if (task == nullptr) {
        return;
    }
    if (is_barrier(kind) && task->kind == TaskKind::Initial && endpoint == ompt_scope_end) {
        // a barrier outside every parallel region: its team of one has no barrier object
        emit_switch(t, task->active);
        PidNode* generated = g_initial_team_tasks.exchange(nullptr);
        join_list(t, generated, pc);
        join_list(nullptr, task->children, nullptr);
        ++task->dep_generation;
    } else if (is_barrier(kind)) {
        // The end of the barrier that ends a region comes late or never for the workers
        // (LLVM reports it at the next region, with no parallel data): the join at
        // parallel-end orders what follows; nothing to record then.
        if (task->team != 0 && task->kind == TaskKind::Implicit &&
            (endpoint == ompt_scope_begin || parallel != nullptr)) {
            if (endpoint == ompt_scope_begin) {
                ensure_private(t, task);
                if (task->active != task->pid) chunk_boundary(t, task, false, pc);
                emit_switch(t, task->pid);
                sync(t, fmt::kOpBarrierArrive, fmt::kObjOmpBarrier, task->team, task->episode, pc);
                task->in_barrier = true;
            } else {
                task->in_barrier = false;
                emit_switch(t, task->pid);
                sync(t, fmt::kOpBarrierDepart, fmt::kObjOmpBarrier, task->team, task->episode, pc);
                ++task->episode;
                join_list(nullptr, task->children, nullptr); // complete: ordered by the barrier
                ++task->dep_generation;
            }
        }
    } else if (kind == ompt_sync_region_taskwait && endpoint == ompt_scope_end) {
        emit_switch(t, task->active);
        join_list(t, task->children, pc);
        ++task->dep_generation;
    } else if (kind == ompt_sync_region_taskgroup) {
        if (endpoint == ompt_scope_begin) {
            TaskGroup* g = g_groups.get();
            if (g != nullptr) {
                g->outer = task->group;
                task->group = g;
            }
        } else if (TaskGroup* g = task->group) {
            task->group = g->outer;
            emit_switch(t, task->active);
            PidNode* members = g->members.exchange(nullptr);
            join_list(t, members, pc);
            g_groups.put(g);
        }
    }
}

// The end of a taskgroup's wait: every member is complete. libomp combines the task
// reductions of the taskgroup (OpenMP 5.1 2.21.5.5) after this and before it reports the end
// of the taskgroup region, so the members are joined here, before the combine reads their
// copies and writes the original items.
void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*,
                         ompt_data_t* task_data, const void* pc) {
    if (kind != ompt_sync_region_taskgroup || endpoint != ompt_scope_end) return;
    InterceptorScope scope;
    if (!scope) return;
    Task* task = task_of(task_data);
    TaskGroup* g = task ? task->group : nullptr;
    if (g == nullptr) return;
    ThreadState* t = scope.thread();
    emit_switch(t, task->active);
    PidNode* members = g->members.exchange(nullptr);
    join_list(t, members, pc);
}

// --- task reductions (task_reduction / in_reduction / reduction(task, ...)) ------------------
// libomp gives each thread one private copy of every item; the tasks a thread runs use it one
// after the other, the end of the taskgroup (or region) combines the copies. For the program a
// participating task's copy is its own private storage (OpenMP 5.1 2.21.5.6): a task declares
// the copy it got as its task block (kRecTaskBlock), so that the tasks sharing a copy never
// conflict there, while the initialisation and the combine by the encountering task stay where
// they are (ordered with the tasks by their fork and by the taskgroup join).
// clang passes the item sizes at initialisation and asks for a thread's copy by the item's
// address (or an enclosing copy's); gcc registers an array of per-thread chunks and remaps
// pointers into it.

struct ReductionItem {
    u64 key = 0; // item address (clang) or the registration array (gcc: uintptr_t data[])
    u64 size = 0;
};
inline constexpr u32 kReductionItems = 256;
ReductionItem g_reduction_items[kReductionItems];
std::atomic<u32> g_reduction_lock{0};
u32 g_reduction_next = 0;

void remember_reduction(u64 key, u64 size) {
    spin_lock(g_reduction_lock);
    u32 free_slot = kReductionItems;
    for (u32 i = 0; i < kReductionItems; ++i) {
        if (g_reduction_items[i].key == key) free_slot = i;
        if (free_slot == kReductionItems && g_reduction_items[i].key == 0) free_slot = i;
    }
    if (free_slot == kReductionItems) free_slot = g_reduction_next++ % kReductionItems;
    g_reduction_items[free_slot] = {key, size};
    spin_unlock(g_reduction_lock);
}

void forget_reduction(u64 key) {
    spin_lock(g_reduction_lock);
    for (ReductionItem& item : g_reduction_items)
        if (item.key == key) item = {};
    spin_unlock(g_reduction_lock);
}

u64 reduction_size(u64 key) {
    spin_lock(g_reduction_lock);
    u64 size = 0;
    for (const ReductionItem& item : g_reduction_items)
        if (item.key == key) size = item.size;
    spin_unlock(g_reduction_lock);
    return size;
}

// The running explicit task's private copy is [lo, hi).
void declare_reduction_copy(u64 lo, u64 hi) {
    InterceptorScope scope;
    if (!scope) return;
    Task* task = tls_task;
    if (task == nullptr || task->kind != TaskKind::Explicit || task->ended || lo >= hi) return;
    ThreadState* t = scope.thread();
    emit_switch(t, task->active);
    const u64 v[] = {task->pid, lo, hi};
    emit_varints(t, fmt::kRecTaskBlock, v, 3);
}

// clang: libomp pads each thread's copy to whole cache lines (kmp_tasking.cpp,
// __kmp_task_reduction_init), so the copy at `copy` spans the item size rounded up to 64.
void on_reduction_copy(const void* item, void* copy) {
    const u64 size = reduction_size(reinterpret_cast<u64>(item));
    if (copy == nullptr || size == 0) return;
    const u64 padded = (size + 63) / 64 * 64;
    remember_reduction(reinterpret_cast<u64>(copy), size); // a nested task may ask by the copy
    declare_reduction_copy(reinterpret_cast<u64>(copy), reinterpret_cast<u64>(copy) + padded);
}

// gcc: the registration array (libgomp task.c): data[0] items, data[1] bytes per thread,
// data[2] the per-thread chunks once registered, data[6] their end.
void on_gomp_reduction_remap(std::size_t count, void** ptrs) {
    spin_lock(g_reduction_lock);
    u64 found_lo = 0, found_hi = 0;
    for (std::size_t k = 0; k < count && found_hi == 0; ++k) {
        const u64 p = reinterpret_cast<u64>(ptrs[k]);
        for (const ReductionItem& item : g_reduction_items) {
            if (item.key == 0 || item.size != 1) continue;
            const auto* data = reinterpret_cast<const uintptr_t*>(item.key);
            const u64 lo = data[2], hi = data[6], chunk = data[1];
            if (chunk == 0 || p < lo || p >= hi) continue;
            found_lo = lo + (p - lo) / chunk * chunk;
            found_hi = found_lo + chunk;
            break;
        }
    }
    spin_unlock(g_reduction_lock);
    if (found_hi != 0) declare_reduction_copy(found_lo, found_hi);
}

// The lock protocol of every mutual exclusion construct (see the top of this file).
void lock_acquired(ThreadState* t, u64 id, const void* pc) {
    ObjEntry* o = object(fmt::kObjOmpMutex, reinterpret_cast<const void*>(id));
    const u64 c = o->counter.fetch_add(2);
    if (tls_nheld < kHeldMax) tls_held[tls_nheld++] = Held{id, c + 1};
    sync(t, fmt::kOpAcquire, fmt::kObjOmpMutex, id, c, pc);
}

void lock_released(ThreadState* t, u64 id, const void* pc) {
    u64 counter = 0;
    bool found = false;
    for (u32 i = tls_nheld; i-- > 0;) {
        if (tls_held[i].wait_id == id) {
            counter = tls_held[i].release_counter;
            tls_held[i] = tls_held[--tls_nheld];
            found = true;
            break;
        }
    }
    if (!found) // acquired on another thread (untied task) or before tracing: next in order
        counter =
            object(fmt::kObjOmpMutex, reinterpret_cast<const void*>(id))->counter.fetch_add(1);
    sync(t, fmt::kOpRelease, fmt::kObjOmpMutex, id, counter, pc);
}

// A lock or critical section excludes only within the contention group of the task using it
// (the threads of one team of a league, OpenMP 5.1 2.19.1, 3.9): outside the initial group its
// object is the pair (lock, group). Teams of a league using one lock are therefore unordered by
// it, as on a device where each team's lock state is its own. The runtime's atomic lock (an
// atomic construct it implements with a lock, and gcc's combine of reductions, also those of
// the teams into the original item) and ordered are not per group.
u64 lock_object_id(ompt_mutex_t kind, ompt_wait_id_t wait_id) {
    const Task* task = tls_task;
    if (task == nullptr || task->contention == 0) return wait_id;
    if (kind == ompt_mutex_atomic || kind == ompt_mutex_ordered) return wait_id;
    return (mix(wait_id ^ (u64{task->contention} << 32)) & ~(3ull << 62)) | (1ull << 62);
}

void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    lock_acquired(t, lock_object_id(kind, wait_id), pc);
}

void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    lock_released(t, lock_object_id(kind, wait_id), pc);
}

// The combine step of a reduction (LLVM's __kmpc_reduce with the critical method, see the top
// of this file): a critical section of the team, reported by this callback and not by the
// mutex ones. Ids of these locks have the top bit set (wait ids are addresses).
void on_reduction(ompt_sync_region_t, ompt_scope_endpoint_t endpoint, ompt_data_t*,
                  ompt_data_t* task_data, const void* pc) {
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* task = task_of(task_data);
    // Inside a team of a league the combine may go straight into the item the teams share
    // (clang's `teams distribute parallel for reduction`): the runtime's lock is then the
    // reduction site's (__kmpc_reduce's critical name), common to every team.
    const u64 id = task != nullptr && task->contention != 0
                       ? (3ull << 62) | (reinterpret_cast<u64>(pc) & ((1ull << 62) - 1))
                       : (1ull << 63) | (task ? task->team : 0);
    if (endpoint == ompt_scope_begin)
        lock_acquired(t, id, pc);
    else
        lock_released(t, id, pc);
}

void on_work(ompt_work_t, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t* task_data,
             uint64_t, const void* pc) {
    if (endpoint != ompt_scope_end) return;
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    Task* task = task_of(task_data);
    if (task != nullptr && task->kind == TaskKind::Implicit && task->active != task->pid)
        chunk_boundary(t, task, false, pc);
}

// --- a league of teams run one after the other on this thread (gcc's host fallback) ---------
// Each team is an implicit task of the league (kProcImplicitTask, its own contention group),
// forked by the process of the task that encountered the teams construct and joined by it at
// the league's end; the encountering task's active process is the running team's meanwhile, so
// that the regions and tasks a team creates are forked from it.
struct HostLeague {
    Task* host = nullptr; // the encountering task (null: no league here)
    u32 base = 0, count = 0, current = 0;
    u32 saved_active = 0, saved_contention = 0, saved_team = 0, saved_teams = 0;
    u64 private_below = 0;
};
__thread HostLeague tls_league __attribute__((tls_model("initial-exec")));

void start_team(ThreadState* t, HostLeague& l) {
    const u32 pid = l.base + l.current;
    emit_process(t, pid, kNoPid, fmt::kProcImplicitTask);
    if (l.private_below != 0) emit_private(t, pid, l.private_below);
    l.host->active = pid;
    l.host->contention = pid;
    l.host->host_team = l.current;
    l.host->host_teams = l.count;
}

void end_team(ThreadState* t, const HostLeague& l) {
    emit_switch(t, l.base + l.current);
    emit_end(t, now());
}

struct ModuleOf {
    u64 pc;
    u64 lo = 0, hi = 0;
};

int module_bounds_callback(struct dl_phdr_info* info, size_t, void* arg) {
    auto* m = static_cast<ModuleOf*>(arg);
    u64 lo = ~0ull, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type != PT_LOAD) continue;
        const u64 a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        if (a < lo) lo = a;
        if (a + info->dlpi_phdr[i].p_memsz > hi) hi = a + info->dlpi_phdr[i].p_memsz;
    }
    if (m->pc >= lo && m->pc < hi) {
        m->lo = lo;
        m->hi = hi;
        return 1;
    }
    return 0;
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
    ModuleOf runtime{reinterpret_cast<u64>(lookup)}; // the lookup function is the runtime's
    dl_iterate_phdr(module_bounds_callback, &runtime);
    g_openmp_runtime_lo.store(runtime.lo);
    g_openmp_runtime_hi.store(runtime.hi);
    auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
    g_get_task_info = reinterpret_cast<ompt_get_task_info_t>(lookup("ompt_get_task_info"));
    g_get_task_memory = reinterpret_cast<ompt_get_task_memory_t>(lookup("ompt_get_task_memory"));
    if (set_callback == nullptr) return 0;
    void* deps = mmap(nullptr, kDepTableSize * sizeof(DepEntry), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    g_deps = deps == MAP_FAILED ? nullptr : static_cast<DepEntry*>(deps);
    auto reg = [&](ompt_callbacks_t which, auto fn) {
        set_callback(which, reinterpret_cast<ompt_callback_t>(fn));
    };
    reg(ompt_callback_thread_begin, on_thread_begin);
    reg(ompt_callback_parallel_begin, on_parallel_begin);
    reg(ompt_callback_parallel_end, on_parallel_end);
    reg(ompt_callback_implicit_task, on_implicit_task);
    reg(ompt_callback_task_create, on_task_create);
    reg(ompt_callback_dependences, on_dependences);
    reg(ompt_callback_task_schedule, on_task_schedule);
    reg(ompt_callback_sync_region, on_sync_region);
    reg(ompt_callback_sync_region_wait, on_sync_region_wait);
    reg(ompt_callback_mutex_acquired, on_mutex_acquired);
    reg(ompt_callback_mutex_released, on_mutex_released);
    reg(ompt_callback_work, on_work);
    reg(ompt_callback_reduction, on_reduction);
    if (InterceptorScope scope; scope) declare_os_thread(scope.thread());
    return 1;
}

void finalize_tool(ompt_data_t*) {}

ompt_start_tool_result_t g_tool = {initialize, finalize_tool, {0}};

} // namespace

bool omp_host_team(u32* number, u32* count) {
    if (tls_league.count != 0) { // the team running on this thread
        *number = tls_league.current;
        *count = tls_league.count;
        return true;
    }
    const Task* task = tls_task; // a thread of a region or a task inside a team
    if (task == nullptr || task->host_teams == 0) return false;
    *number = task->host_team;
    *count = task->host_teams;
    return true;
}

// The league's teams are counted here whatever is recorded: the program's control flow
// depends on it (GOMP_teams4). Records are written when the encountering task is known.
void omp_host_league_begin(u32 count, u64 private_below, const void* pc) {
    HostLeague& l = tls_league;
    if (l.count != 0 || count == 0) return;
    l = HostLeague{};
    l.count = count;
    InterceptorScope scope;
    Task* host = tls_task;
    if (!scope || host == nullptr) return;
    ThreadState* t = scope.thread();
    l.host = host;
    l.base = new_pids(count);
    l.saved_active = host->active;
    l.saved_contention = host->contention;
    l.saved_team = host->host_team;
    l.saved_teams = host->host_teams;
    l.private_below = private_below;
    emit_switch(t, host->active);
    for (u32 i = 0; i < count; ++i)
        fork_join(t, fmt::kOpFork, l.base + i, pc);
    start_team(t, l);
}

bool omp_host_league_next(const void* pc) {
    HostLeague& l = tls_league;
    if (l.count == 0) return false;
    InterceptorScope scope;
    ThreadState* t = scope ? scope.thread() : nullptr;
    if (t != nullptr && l.host != nullptr) end_team(t, l);
    if (++l.current < l.count) {
        if (t != nullptr && l.host != nullptr) start_team(t, l);
        return true;
    }
    if (l.host != nullptr) {
        l.host->active = l.saved_active;
        l.host->contention = l.saved_contention;
        l.host->host_team = l.saved_team;
        l.host->host_teams = l.saved_teams;
        if (t != nullptr) {
            emit_switch(t, l.saved_active);
            for (u32 i = 0; i < l.count; ++i)
                fork_join(t, fmt::kOpJoin, l.base + i, pc);
        }
    }
    l = HostLeague{};
    return false;
}
} // namespace frt

using namespace frt;

FRT_EXPORT ompt_start_tool_result_t* ompt_start_tool(unsigned int, const char*) {
    ensure_init();
    if (g_state.load(std::memory_order_acquire) != RtState::Ready) return nullptr;
    return &g_tool;
}

// Set before the OpenMP runtime reads them (unless the user set them): the reduction method
// (see the top of this file), and no hidden helper threads: libomp 14 runs `target nowait`
// tasks on them, outside any team, with task events that do not follow the rules above (the
// races of samples/openmp/target-tasks-racy.c came and went between runs, and a team of one
// failed an assertion of libomp's); without them the tasks run on the team's threads like
// other deferred tasks.
__attribute__((constructor)) static void frt_openmp_environment() {
    setenv("KMP_FORCE_REDUCTION", "critical", 0);
    setenv("LIBOMP_USE_HIDDEN_HELPER_TASK", "0", 0);
}

// --- dispatch of worksharing chunks -----------------------------------------------------------

namespace {
// Calls the real entry point (nested dispatch calls inside it are not chunk boundaries), then
// records the boundary.
template <class R, class... A>
R dispatch(R (*real)(A...), const void* pc, std::type_identity_t<A>... args) {
    if (real == nullptr) return R{};
    ++tls_in_dispatch;
    const R r = real(args...);
    --tls_in_dispatch;
    on_dispatch(r != R{}, pc);
    return r;
}
} // namespace

#define FRT_CALLER() (__builtin_return_address(0))

// LLVM entry points (clang: dynamic, guided, runtime and auto schedules).
using kmp_int32 = std::int32_t;
using kmp_int64 = std::int64_t;
#define FRT_KMP_NEXT(name, T)                                                                      \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, int (*)(void*, kmp_int32, kmp_int32*, T*, T*, T*));               \
    }                                                                                              \
    FRT_EXPORT int name(void* loc, kmp_int32 gtid, kmp_int32* last, T* lb, T* ub, T* st) {         \
        return dispatch(REAL(name), FRT_CALLER(), loc, gtid, last, lb, ub, st);                    \
    }
FRT_KMP_NEXT(__kmpc_dispatch_next_4, kmp_int32)
FRT_KMP_NEXT(__kmpc_dispatch_next_4u, std::uint32_t)
FRT_KMP_NEXT(__kmpc_dispatch_next_8, kmp_int64)
FRT_KMP_NEXT(__kmpc_dispatch_next_8u, std::uint64_t)

// Doacross loops (clang). kmp_dim is {lo, up, st} of kmp_int64 per dimension.
namespace {
FRT_DECLARE_REAL_TYPED(__kmpc_doacross_init, void (*)(void*, kmp_int32, kmp_int32, const void*));
FRT_DECLARE_REAL_TYPED(__kmpc_doacross_wait, void (*)(void*, kmp_int32, const kmp_int64*));
FRT_DECLARE_REAL_TYPED(__kmpc_doacross_post, void (*)(void*, kmp_int32, const kmp_int64*));
} // namespace
FRT_EXPORT void __kmpc_doacross_init(void* loc, kmp_int32 gtid, kmp_int32 dims,
                                     const void* bounds) {
    if (auto real = REAL(__kmpc_doacross_init)) real(loc, gtid, dims, bounds);
    on_doacross_init(dims, static_cast<const kmp_int64*>(bounds));
}
FRT_EXPORT void __kmpc_doacross_wait(void* loc, kmp_int32 gtid, const kmp_int64* vec) {
    if (auto real = REAL(__kmpc_doacross_wait)) real(loc, gtid, vec);
    on_doacross(false, vec, FRT_CALLER());
}
FRT_EXPORT void __kmpc_doacross_post(void* loc, kmp_int32 gtid, const kmp_int64* vec) {
    on_doacross(true, vec, FRT_CALLER());
    if (auto real = REAL(__kmpc_doacross_post)) real(loc, gtid, vec);
}

// taskwait depend (clang; gcc's GOMP_taskwait_depend calls it inside libomp).
namespace {
FRT_DECLARE_REAL_TYPED(__kmpc_omp_wait_deps,
                       void (*)(void*, kmp_int32, kmp_int32, const KmpDependInfo*, kmp_int32,
                                const KmpDependInfo*));
} // namespace
FRT_EXPORT void __kmpc_omp_wait_deps(void* loc, kmp_int32 gtid, kmp_int32 ndeps,
                                     const KmpDependInfo* deps, kmp_int32 nnoalias,
                                     const KmpDependInfo* noalias) {
    tls_in_wait_deps = true;
    if (auto real = REAL(__kmpc_omp_wait_deps)) real(loc, gtid, ndeps, deps, nnoalias, noalias);
    tls_in_wait_deps = false;
    on_wait_deps(deps, ndeps, FRT_CALLER());
    on_wait_deps(noalias, nnoalias, FRT_CALLER());
}

// GNU entry points (gcc), as libomp implements them.
using ull = unsigned long long;
#define FRT_GOMP_NEXT(name, T)                                                                     \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, bool (*)(T*, T*));                                                \
    }                                                                                              \
    FRT_EXPORT bool name(T* istart, T* iend) {                                                     \
        return dispatch(REAL(name), FRT_CALLER(), istart, iend);                                   \
    }
#define FRT_GOMP_START4(name)                                                                      \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, bool (*)(long, long, long, long, long*, long*));                  \
    }                                                                                              \
    FRT_EXPORT bool name(long s, long e, long inc, long chunk, long* istart, long* iend) {         \
        return dispatch(REAL(name), FRT_CALLER(), s, e, inc, chunk, istart, iend);                 \
    }
#define FRT_GOMP_START3(name)                                                                      \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, bool (*)(long, long, long, long*, long*));                        \
    }                                                                                              \
    FRT_EXPORT bool name(long s, long e, long inc, long* istart, long* iend) {                     \
        return dispatch(REAL(name), FRT_CALLER(), s, e, inc, istart, iend);                        \
    }
#define FRT_GOMP_ULL_START4(name)                                                                  \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, bool (*)(bool, ull, ull, ull, ull, ull*, ull*));                  \
    }                                                                                              \
    FRT_EXPORT bool name(bool up, ull s, ull e, ull inc, ull chunk, ull* istart, ull* iend) {      \
        return dispatch(REAL(name), FRT_CALLER(), up, s, e, inc, chunk, istart, iend);             \
    }
#define FRT_GOMP_ULL_START3(name)                                                                  \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, bool (*)(bool, ull, ull, ull, ull*, ull*));                       \
    }                                                                                              \
    FRT_EXPORT bool name(bool up, ull s, ull e, ull inc, ull* istart, ull* iend) {                 \
        return dispatch(REAL(name), FRT_CALLER(), up, s, e, inc, istart, iend);                    \
    }

FRT_GOMP_NEXT(GOMP_loop_dynamic_next, long)
FRT_GOMP_NEXT(GOMP_loop_guided_next, long)
FRT_GOMP_NEXT(GOMP_loop_runtime_next, long)
FRT_GOMP_NEXT(GOMP_loop_nonmonotonic_dynamic_next, long)
FRT_GOMP_NEXT(GOMP_loop_nonmonotonic_guided_next, long)
FRT_GOMP_NEXT(GOMP_loop_nonmonotonic_runtime_next, long)
FRT_GOMP_NEXT(GOMP_loop_maybe_nonmonotonic_runtime_next, long)
FRT_GOMP_NEXT(GOMP_loop_ordered_dynamic_next, long)
FRT_GOMP_NEXT(GOMP_loop_ordered_guided_next, long)
FRT_GOMP_NEXT(GOMP_loop_ordered_runtime_next, long)
FRT_GOMP_NEXT(GOMP_loop_ordered_static_next, long)
FRT_GOMP_NEXT(GOMP_loop_ull_dynamic_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_guided_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_runtime_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_nonmonotonic_dynamic_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_nonmonotonic_guided_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_nonmonotonic_runtime_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_maybe_nonmonotonic_runtime_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_ordered_dynamic_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_ordered_guided_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_ordered_runtime_next, ull)
FRT_GOMP_NEXT(GOMP_loop_ull_ordered_static_next, ull)
FRT_GOMP_START4(GOMP_loop_dynamic_start)
FRT_GOMP_START4(GOMP_loop_guided_start)
FRT_GOMP_START4(GOMP_loop_nonmonotonic_dynamic_start)
FRT_GOMP_START4(GOMP_loop_nonmonotonic_guided_start)
FRT_GOMP_START4(GOMP_loop_ordered_dynamic_start)
FRT_GOMP_START4(GOMP_loop_ordered_guided_start)
FRT_GOMP_START4(GOMP_loop_ordered_static_start)
FRT_GOMP_START3(GOMP_loop_runtime_start)
FRT_GOMP_START3(GOMP_loop_nonmonotonic_runtime_start)
FRT_GOMP_START3(GOMP_loop_maybe_nonmonotonic_runtime_start)
FRT_GOMP_START3(GOMP_loop_ordered_runtime_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_dynamic_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_guided_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_nonmonotonic_dynamic_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_nonmonotonic_guided_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_ordered_dynamic_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_ordered_guided_start)
FRT_GOMP_ULL_START4(GOMP_loop_ull_ordered_static_start)
FRT_GOMP_ULL_START3(GOMP_loop_ull_runtime_start)
FRT_GOMP_ULL_START3(GOMP_loop_ull_nonmonotonic_runtime_start)
FRT_GOMP_ULL_START3(GOMP_loop_ull_maybe_nonmonotonic_runtime_start)
FRT_GOMP_ULL_START3(GOMP_loop_ull_ordered_runtime_start)

// gcc's combined `parallel` + loop: the region's function runs on this thread inside the real
// entry point, so every frame below this one is the encountering implicit task's
// (tls_gomp_combined_frame).
namespace {
template <class Real, class... Args> void gomp_combined_loop(Real real, Args... args) {
    if (real == nullptr) return;
    const u64 saved = tls_gomp_combined_frame;
    tls_gomp_combined_frame = reinterpret_cast<u64>(__builtin_frame_address(0));
    real(args...);
    tls_gomp_combined_frame = saved;
}
} // namespace
#define FRT_GOMP_PARALLEL_LOOP(name)                                                               \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, void (*)(void (*)(void*), void*, unsigned, long, long, long,      \
                                          long, unsigned));                                        \
    }                                                                                              \
    FRT_EXPORT void name(void (*fn)(void*), void* data, unsigned threads, long s, long e,          \
                         long inc, long chunk, unsigned flags) {                                   \
        gomp_combined_loop(REAL(name), fn, data, threads, s, e, inc, chunk, flags);                \
    }
#define FRT_GOMP_PARALLEL_LOOP_RUNTIME(name)                                                       \
    namespace {                                                                                    \
    FRT_DECLARE_REAL_TYPED(name, void (*)(void (*)(void*), void*, unsigned, long, long, long,      \
                                          unsigned));                                              \
    }                                                                                              \
    FRT_EXPORT void name(void (*fn)(void*), void* data, unsigned threads, long s, long e,          \
                         long inc, unsigned flags) {                                               \
        gomp_combined_loop(REAL(name), fn, data, threads, s, e, inc, flags);                       \
    }
FRT_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_static)
FRT_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
FRT_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_guided)
FRT_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
FRT_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
FRT_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
FRT_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
FRT_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

// The OpenMP 5.0 generic start (schedule passed at run time; static ones hand out chunks too,
// harmless: a chunk is a legal split of the implicit task).
namespace {
FRT_DECLARE_REAL_TYPED(GOMP_loop_start,
                       bool (*)(long, long, long, long, long, long*, long*, uintptr_t*, void**));
}
// `mem` (gcc: the buffer of a scan, OpenMP 5.1 2.11.8, or of lastprivate(conditional:)) asks
// for zeroed memory shared by the team for this worksharing construct: libomp 14 aborts on it,
// so it is supplied here and libomp sees none.
FRT_EXPORT bool GOMP_loop_start(long s, long e, long inc, long sched, long chunk, long* istart,
                                long* iend, uintptr_t* reductions, void** mem) {
    void* shared = mem != nullptr ? team_shared_block(reinterpret_cast<uintptr_t>(*mem)) : nullptr;
    const bool r = dispatch(REAL(GOMP_loop_start), FRT_CALLER(), s, e, inc, sched, chunk, istart,
                            iend, reductions, static_cast<void**>(nullptr));
    if (mem != nullptr) *mem = shared;
    return r;
}
namespace {
FRT_DECLARE_REAL_TYPED(GOMP_loop_ull_start,
                       bool (*)(bool, ull, ull, ull, long, ull, ull*, ull*, uintptr_t*, void**));
}
FRT_EXPORT bool GOMP_loop_ull_start(bool up, ull s, ull e, ull inc, long sched, ull chunk,
                                    ull* istart, ull* iend, uintptr_t* reductions, void** mem) {
    void* shared = mem != nullptr ? team_shared_block(reinterpret_cast<uintptr_t>(*mem)) : nullptr;
    const bool r = dispatch(REAL(GOMP_loop_ull_start), FRT_CALLER(), up, s, e, inc, sched, chunk,
                            istart, iend, reductions, static_cast<void**>(nullptr));
    if (mem != nullptr) *mem = shared;
    return r;
}

// flush (OpenMP 5.1 2.19.8, 1.4.6): clang calls __kmpc_flush for every flush; gcc emits a
// sequentially consistent fence (__sync_synchronize, instrumented as one). A flush without a
// list is a release and an acquire flush: with an atomic write and an atomic read that reads
// its value it orders what comes before the one and after the other, as C11 fences do (the
// atomic model, rt_access.cpp). clang passes no list: every flush is taken as that fence.
extern "C" void __tsan_atomic_thread_fence(int mo);
namespace {
FRT_DECLARE_REAL_TYPED(__kmpc_flush, void (*)(void*));
} // namespace
FRT_EXPORT void __kmpc_flush(void* loc) {
    if (auto real = REAL(__kmpc_flush)) real(loc);
    __tsan_atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Undeferred tasks of the program (if(0)): clang calls __kmpc_omp_task_begin_if0, which starts
// the task on this thread; gcc passes the if clause to GOMP_task.
namespace {
FRT_DECLARE_REAL_TYPED(__kmpc_omp_task_begin_if0, void (*)(void*, kmp_int32, void*));
FRT_DECLARE_REAL_TYPED(GOMP_task, void (*)(void (*)(void*), void*, void (*)(void*, void*), long,
                                           long, bool, unsigned, void**, int, void*));
} // namespace
FRT_EXPORT void __kmpc_omp_task_begin_if0(void* loc, kmp_int32 gtid, void* task) {
    auto real = REAL(__kmpc_omp_task_begin_if0);
    if (real == nullptr) return;
    real(loc, gtid, task);
    if (Task* started = tls_task; started != nullptr && started->kind == TaskKind::Explicit)
        started->undeferred = true;
}
FRT_EXPORT void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                          long arg_align, bool if_clause, unsigned flags, void** depend,
                          int priority, void* detach) {
    auto real = REAL(GOMP_task);
    if (real == nullptr) return;
    tls_creating_if0 = !if_clause;
    // libomp 14's GOMP_task ignores gcc's detach clause (it never writes the event handle, the
    // task completes when its body ends): not detachable for the model either.
    (void)detach;
    real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
    tls_creating_if0 = false;
    tls_creating_detachable = false;
}

// Sections (gcc hands them out one by one; clang lowers them to a static loop).
namespace {
FRT_DECLARE_REAL_TYPED(GOMP_sections_start, unsigned (*)(unsigned));
}
FRT_EXPORT unsigned GOMP_sections_start(unsigned count) {
    return dispatch(REAL(GOMP_sections_start), FRT_CALLER(), count);
}
namespace {
FRT_DECLARE_REAL_TYPED(GOMP_sections2_start, unsigned (*)(unsigned, uintptr_t*, void**));
}
FRT_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem) {
    return dispatch(REAL(GOMP_sections2_start), FRT_CALLER(), count, reductions, mem);
}
namespace {
FRT_DECLARE_REAL_TYPED(GOMP_sections_next, unsigned (*)());
}
FRT_EXPORT unsigned GOMP_sections_next() {
    return dispatch(REAL(GOMP_sections_next), FRT_CALLER());
}

// Task reductions (see "task reductions" above). kmp_taskred_input_t (clang >= 11):
// {shar, orig, size, init, fini, comb, flags}; the older kmp_task_red_input_t: {shar, size, init,
// fini, comb, flags}.
namespace {
struct KmpTaskredInput {
    void* shar;
    void* orig;
    size_t size;
    void *init, *fini, *comb;
    std::int32_t flags;
};
struct KmpTaskRedInput {
    void* shar;
    size_t size;
    void *init, *fini, *comb;
    std::int32_t flags;
};
template <class Input> void remember_inputs(int num, const void* data) {
    const auto* in = static_cast<const Input*>(data);
    for (int i = 0; in != nullptr && i < num; ++i)
        remember_reduction(reinterpret_cast<u64>(in[i].shar), in[i].size);
}
FRT_DECLARE_REAL_TYPED(__kmpc_taskred_init, void* (*)(int, int, void*));
FRT_DECLARE_REAL_TYPED(__kmpc_task_reduction_init, void* (*)(int, int, void*));
FRT_DECLARE_REAL_TYPED(__kmpc_taskred_modifier_init, void* (*)(void*, int, int, int, void*));
FRT_DECLARE_REAL_TYPED(__kmpc_task_reduction_modifier_init, void* (*)(void*, int, int, int, void*));
FRT_DECLARE_REAL_TYPED(__kmpc_task_reduction_get_th_data, void* (*)(int, void*, void*));
FRT_DECLARE_REAL_TYPED(GOMP_taskgroup_reduction_register, void (*)(uintptr_t*));
FRT_DECLARE_REAL_TYPED(GOMP_taskgroup_reduction_unregister, void (*)(uintptr_t*));
FRT_DECLARE_REAL_TYPED(GOMP_task_reduction_remap, void (*)(size_t, size_t, void**));
} // namespace
FRT_EXPORT void* __kmpc_taskred_init(int gtid, int num, void* data) {
    remember_inputs<KmpTaskredInput>(num, data);
    auto real = REAL(__kmpc_taskred_init);
    return real ? real(gtid, num, data) : nullptr;
}
FRT_EXPORT void* __kmpc_task_reduction_init(int gtid, int num, void* data) {
    remember_inputs<KmpTaskRedInput>(num, data);
    auto real = REAL(__kmpc_task_reduction_init);
    return real ? real(gtid, num, data) : nullptr;
}
FRT_EXPORT void* __kmpc_taskred_modifier_init(void* loc, int gtid, int is_ws, int num, void* data) {
    remember_inputs<KmpTaskredInput>(num, data);
    auto real = REAL(__kmpc_taskred_modifier_init);
    return real ? real(loc, gtid, is_ws, num, data) : nullptr;
}
FRT_EXPORT void* __kmpc_task_reduction_modifier_init(void* loc, int gtid, int is_ws, int num,
                                                     void* data) {
    remember_inputs<KmpTaskRedInput>(num, data);
    auto real = REAL(__kmpc_task_reduction_modifier_init);
    return real ? real(loc, gtid, is_ws, num, data) : nullptr;
}
FRT_EXPORT void* __kmpc_task_reduction_get_th_data(int gtid, void* group, void* item) {
    auto real = REAL(__kmpc_task_reduction_get_th_data);
    if (real == nullptr) return nullptr;
    void* copy = real(gtid, group, item);
    on_reduction_copy(item, copy);
    return copy;
}
// gcc: registrations are remembered with size 1 (they are arrays, see on_gomp_reduction_remap).
FRT_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t* data) {
    if (auto real = REAL(GOMP_taskgroup_reduction_register)) real(data);
    remember_reduction(reinterpret_cast<u64>(data), 1);
}
FRT_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t* data) {
    forget_reduction(reinterpret_cast<u64>(data));
    if (auto real = REAL(GOMP_taskgroup_reduction_unregister)) real(data);
}
FRT_EXPORT void GOMP_task_reduction_remap(size_t count, size_t count_orig, void** ptrs) {
    if (auto real = REAL(GOMP_task_reduction_remap)) real(count, count_orig, ptrs);
    on_gomp_reduction_remap(count, ptrs);
}
// gcc's taskloop with a reduction clause and `parallel reduction(task, ...)` register their
// array inside libomp: the argument block starts with the array's address (taskloop: after the
// loop's start and end; libgomp taskloop.c, parallel.c).
namespace {
inline constexpr unsigned kGompTaskFlagReduction = 1u << 12;
FRT_DECLARE_REAL_TYPED(GOMP_taskloop,
                       void (*)(void (*)(void*), void*, void (*)(void*, void*), long, long,
                                unsigned, unsigned long, int, long, long, long));
FRT_DECLARE_REAL_TYPED(GOMP_taskloop_ull,
                       void (*)(void (*)(void*), void*, void (*)(void*, void*), long, long,
                                unsigned, unsigned long, int, ull, ull, ull));
FRT_DECLARE_REAL_TYPED(GOMP_parallel_reductions,
                       unsigned (*)(void (*)(void*), void*, unsigned, unsigned));
// While a reducing GOMP_taskloop runs, the tasks it creates find its registration array here
// (gcc's taskloop tasks compute their private copy inline); restored on the way out.
class GompTaskloopReductions {
  public:
    GompTaskloopReductions(void* data, unsigned flags) : outer_(tls_gomp_taskloop_reductions) {
        if ((flags & kGompTaskFlagReduction) && data != nullptr)
            array_ = reinterpret_cast<u64>(static_cast<uintptr_t**>(data)[2]);
        if (array_ != 0) remember_reduction(array_, 1);
        tls_gomp_taskloop_reductions = reinterpret_cast<const uintptr_t*>(array_);
    }
    ~GompTaskloopReductions() {
        tls_gomp_taskloop_reductions = outer_;
        if (array_ != 0) forget_reduction(array_);
    }
    GompTaskloopReductions(const GompTaskloopReductions&) = delete;
    GompTaskloopReductions& operator=(const GompTaskloopReductions&) = delete;

  private:
    const uintptr_t* outer_;
    u64 array_ = 0;
};
} // namespace
FRT_EXPORT void GOMP_taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                              long arg_size, long arg_align, unsigned flags,
                              unsigned long num_tasks, int priority, long start, long end,
                              long step) {
    const GompTaskloopReductions reductions(data, flags);
    if (auto real = REAL(GOMP_taskloop))
        real(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step);
}
FRT_EXPORT void GOMP_taskloop_ull(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                                  long arg_size, long arg_align, unsigned flags,
                                  unsigned long num_tasks, int priority, ull start, ull end,
                                  ull step) {
    const GompTaskloopReductions reductions(data, flags);
    if (auto real = REAL(GOMP_taskloop_ull))
        real(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step);
}
FRT_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void*), void* data, unsigned num_threads,
                                             unsigned flags) {
    const u64 array = data ? reinterpret_cast<u64>(*static_cast<uintptr_t**>(data)) : 0;
    if (array != 0) remember_reduction(array, 1);
    auto real = REAL(GOMP_parallel_reductions);
    const unsigned r = real ? real(fn, data, num_threads, flags) : 0;
    if (array != 0) forget_reduction(array);
    return r;
}

// Detached tasks (see "detach" above): clang marks the task being created (gcc passes the event
// to GOMP_task, which libomp 14 ignores).
namespace {
FRT_DECLARE_REAL_TYPED(__kmpc_task_allow_completion_event, void* (*)(void*, int, void*));
}
FRT_EXPORT void* __kmpc_task_allow_completion_event(void* loc, int gtid, void* task) {
    auto real = REAL(__kmpc_task_allow_completion_event);
    if (real == nullptr) return nullptr;
    tls_creating_detachable = true;
    return real(loc, gtid, task);
}
