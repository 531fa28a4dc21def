// The arguments a created thread starts with (pthread_create hands them to thread_start), and the
// end of the trace for a thread that has not started yet. A detached thread still starting when
// main returns (or when another thread execs) has recorded nothing, but its creator's Fork is in
// the trace and its end is not: the reader said the trace was truncated ("1 thread(s) were still
// running"), 3 runs in 4 of a program whose main returns right after creating one. So each
// StartArgs says where its thread is: created, starting (registering), or claimed by the trace's
// end. The end claims every created one (the thread then runs untraced, after the end) and names
// it in the metadata (`not-started <pid>`: the reader counts such a process, with no record of
// its own, as complete), and waits for the starting ones to register (then the exit flush
// reaches them as any other thread). An exec's finish only names them: its threads wait for the
// exec's outcome before they register (rt_exec_finish.cpp), and an exec that fails takes the
// metadata lines back.
#include "rt_thread_start_args.hpp"

#include <sys/mman.h>
#include <time.h>

namespace frt {

__thread u64 tls_library_creation_pc __attribute__((tls_model("initial-exec"))) = 0;

namespace {

enum : u32 { kFree = 0, kCreated = 1, kStarting = 2, kClaimed = 3 };

std::atomic<u32> g_start_lock{0};
StartArgs* g_start_free = nullptr;

// Every page of them (never returned: bounded by the threads alive at once); threads beyond
// these pages (thousands starting at once) are not named at the end.
constexpr u32 kMaxPages = 256;
constexpr u32 kPerPage = 4096 / sizeof(StartArgs);
std::atomic<StartArgs*> g_pages[kMaxPages];
std::atomic<u32> g_page_count{0};

template <class F> void for_each_start_args(F f) {
    const u32 pages = g_page_count.load() < kMaxPages ? g_page_count.load() : kMaxPages;
    for (u32 k = 0; k < pages; ++k)
        if (StartArgs* page = g_pages[k].load(std::memory_order_acquire))
            for (u32 i = 0; i < kPerPage; ++i)
                f(page[i]);
}

bool any_starting() {
    bool any = false;
    for_each_start_args(
        [&](StartArgs& a) { any = any || a.state.load(std::memory_order_acquire) == kStarting; });
    return any;
}

} // namespace

StartArgs* new_start_args() {
    spin_lock(g_start_lock);
    StartArgs* a = g_start_free;
    if (a) g_start_free = a->next;
    spin_unlock(g_start_lock);
    if (a) return a;
    void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return nullptr;
    auto* arr = static_cast<StartArgs*>(page);
    if (const u32 k = g_page_count.fetch_add(1); k < kMaxPages) g_pages[k].store(arr);
    spin_lock(g_start_lock);
    for (u32 i = 1; i < kPerPage; ++i) {
        arr[i].next = g_start_free;
        g_start_free = &arr[i];
    }
    spin_unlock(g_start_lock);
    return &arr[0];
}

void start_args_created(StartArgs* a) {
    a->state.store(kCreated, std::memory_order_release);
}

void free_start_args(StartArgs* a) {
    a->state.store(kFree, std::memory_order_release);
    spin_lock(g_start_lock);
    a->next = g_start_free;
    g_start_free = a;
    spin_unlock(g_start_lock);
}

bool start_args_claimed(StartArgs* a) {
    u32 created = kCreated;
    return a->state.compare_exchange_strong(created, kStarting, std::memory_order_acq_rel);
}

void list_unstarted_threads(bool claim, void (*each)(u32 pid)) {
    for_each_start_args([&](StartArgs& a) {
        u32 state = kCreated;
        if (claim ? a.state.compare_exchange_strong(state, kClaimed)
                  : a.state.load(std::memory_order_acquire) == kCreated)
            each(a.pid);
    });
    // registering takes microseconds (signals blocked: nothing else runs on the thread)
    const struct timespec pause = {0, 1'000'000};
    for (int wait = 0; wait < 100 && any_starting(); ++wait)
        nanosleep(&pause, nullptr);
}

void start_args_after_fork() {
    g_start_lock.store(0); // its holder, if any, does not exist in the child
    for_each_start_args([](StartArgs& a) {
        if (a.state.load() != kFree) free_start_args(&a);
    });
}

} // namespace frt
