// std::promise::set_value_at_thread_exit and std::packaged_task::make_ready_at_thread_exit
// (C++11 [futures.promise], [futures.task.members]): the future becomes ready after the
// thread's thread_local objects are destroyed, so a get() that returns is ordered after their
// destructors. libstdc++ makes the state ready inside the library (uninstrumented) at the
// thread's exit; the runtime records that release (rt_future_at_thread_exit.cpp). Each detached
// worker's thread_local log writes its summary in its destructor; main reads it after get(),
// which releases the state: the worker's exit may then destroy it (libstdc++'s uninstrumented
// reference count, which the runtime records for this callback: false races 4 runs in 10 before).
#include <cstdio>
#include <future>
#include <thread>

namespace {
int summaries[2]; // written by the thread_local destructors

struct Log {
    int slot = -1;
    int lines = 0;
    ~Log() {
        if (slot >= 0) summaries[slot] = lines * 100;
    }
};
thread_local Log thread_log;

int work(int slot) {
    thread_log.slot = slot;
    for (int i = 0; i <= slot; ++i)
        ++thread_log.lines;
    return slot + 1;
}
} // namespace

int main() {
    std::promise<int> promise;
    std::future<int> value = promise.get_future();
    std::thread([p = std::move(promise)]() mutable {
        p.set_value_at_thread_exit(work(0));
    }).detach();
    std::packaged_task<int(int)> task(work);
    std::future<int> done = task.get_future();
    std::thread([t = std::move(task)]() mutable { t.make_ready_at_thread_exit(1); }).detach();
    const int a = value.get();
    const int b = done.get();
    std::printf("%d %d %d %d\n", a, b, summaries[0], summaries[1]);
    return 0;
}
